/// The template of the demo partner's pages (`serve --demo` only): what a partner received.
enum DemoPageTemplates {
    static let all: [String: String] = ["demo": demo, "demo-layout": layout]

    /// The partner's own frame: another name and colour than the bank's pages.
    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>{{title}}</title>
        <link rel="stylesheet" href="/hosted/style.css">
        </head>
        <body class="demo">
        <header class="brand"><span class="mark" aria-hidden="true"></span>ACME Pay</header>
        <main class="card">
        {{{content}}}
        </main>
        <footer>A stand-in for a partner's own app, served only by <span class="nowrap">sca-server serve --demo</span>.</footer>
        </body>
        </html>
        """

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
        .nowrap{white-space:nowrap}
        body.demo .brand{color:#1f5a33}
        body.demo .mark{background:#2f8a4c;border-radius:50%}
        pre.command{background:#1b1f24;color:#e8eef6;border-radius:8px;padding:.7rem .8rem;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.85rem}
        """
}
