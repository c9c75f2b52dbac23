import SCAEngine
import SCAPartners
/// The template of the demo partner's pages (`serve --demo` only): what a partner received.
enum DemoPageTemplates {
    static let all: [String: String] = ["demo": demo]

    /// The partner's own frame: another name and colour than the bank's pages.
    static let frame = PageFrame(
        brand: DemoPartner.name, footer: "A stand-in for a partner's app, served by sca-server serve --demo.", bodyClass: "demo")
    /// The FAPI demo partner's: its own name over the page.
    static let fapiFrame = PageFrame(
        brand: DemoPartner.fapiName, footer: "A stand-in for a partner's back end, served by sca-server serve --demo.",
        bodyClass: "demo")

    static let demo = """
        <p class="lead">Demo partner application</p>
        <h1>{{heading}}</h1>
        <p>{{message}}</p>
        {{#hasClaims}}
        <dl class="operation">
        {{#claims}}<div><dt>{{name}}</dt><dd class="claim">{{value}}</dd></div>{{/claims}}
        </dl>
        {{/hasClaims}}
        {{#command}}
        <p class="hint">{{commandHint}}</p>
        <pre class="command">{{command}}</pre>
        {{/command}}
        {{#retry}}<p><a class="button" href="{{retry}}">Sign in again</a></p>{{/retry}}
        """

    /// Added to the pages' stylesheet: long claim values wrap, the command reads as code.
    static let style = """

        .operation dd.claim{font-weight:500;overflow-wrap:anywhere;text-align:right;max-width:70%}
        body.demo{background:#eef5ef}
        body.demo .brand{color:#1f5a33}
        body.demo .mark{background:#2f8a4c;border-radius:50%}
        pre.command{background:#1b1f24;color:#e8eef6;border-radius:8px;padding:.7rem .8rem;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.85rem}
        """
}
