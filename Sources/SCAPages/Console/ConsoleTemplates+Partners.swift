// The partners page and one partner's page.
extension ConsoleTemplates {
    static let partners = """
        {{> console-nav}}
        <h1>{{t.console.partners.title}}</h1>
        <p class="lead">{{t.console.partners.lead}}</p>
        {{^partners}}<p class="hint">{{t.console.partners.none}}</p>{{/partners}}
        {{#hasPartners}}
        <div class="table" role="region" aria-labelledby="partners-caption" tabindex="0">
        <table>
        <caption id="partners-caption">{{t.console.partners.caption}}</caption>
        <thead><tr><th scope="col">{{t.console.user.column.partner}}</th><th scope="col">{{t.console.partners.column.profile}}</th><th scope="col">{{t.console.user.column.openSessions}}</th><th scope="col">{{t.console.partners.column.users}}</th><th scope="col">{{t.console.user.column.openConsents}}</th><th scope="col">{{t.console.partners.column.deliveries}}</th></tr></thead>
        <tbody>
        {{#partners}}
        <tr><td><a href="{{href}}">{{name}}</a><br><span class="hint">{{clientId}}</span></td><td>{{profile}}</td><td>{{sessions}}</td><td>{{users}}</td><td>{{waiting}}</td><td><span class="badge {{healthClass}}">{{health}}</span></td></tr>
        {{/partners}}
        </tbody>
        </table>
        </div>
        {{/hasPartners}}
        """

    static let partner = """
        {{> console-nav}}
        <p><a href="/console/partners">{{t.console.partner.back}}</a></p>
        <h1>{{name}}</h1>
        <p class="hint">{{clientId}} · {{profile}} · {{created}}</p>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <div class="panels">
        <section class="panel">
        <h2 id="client-heading">{{t.console.partner.client}}</h2>
        <dl class="facts">
        <div><dt>{{t.console.partner.scopes}}</dt><dd>{{scopes}}</dd></div>
        <div><dt>{{t.console.partner.webhook}}</dt><dd class="uri">{{webhook}}</dd></div>
        <div><dt>{{t.console.partner.backchannelLogout}}</dt><dd class="uri">{{backchannelLogout}}</dd></div>
        <div><dt>{{t.console.partner.cibaEndpoint}}</dt><dd class="uri">{{cibaEndpoint}}</dd></div>
        </dl>
        <h3>{{t.console.partner.redirectURIs}}</h3>
        <ul class="plain uris">{{#redirectURIs}}<li>{{.}}</li>{{/redirectURIs}}</ul>
        {{#hasConsentRedirectURIs}}
        <h3>{{t.console.partner.consentRedirectURIs}}</h3>
        <ul class="plain uris">{{#consentRedirectURIs}}<li>{{.}}</li>{{/consentRedirectURIs}}</ul>
        {{/hasConsentRedirectURIs}}
        </section>
        <section class="panel">
        <h2 id="holds-heading">{{t.console.partner.holds}}</h2>
        <dl class="facts">
        <div><dt>{{t.console.user.column.openSessions}}</dt><dd>{{sessions}}</dd></div>
        <div><dt>{{t.console.partners.column.users}}</dt><dd>{{users}}</dd></div>
        <div><dt>{{t.console.user.column.openConsents}}</dt><dd>{{waiting}}</dd></div>
        </dl>
        <h3>{{t.console.partner.consents}}</h3>
        {{^consents}}<p class="hint">{{t.console.partner.noConsents}}</p>{{/consents}}
        {{#hasConsents}}
        <dl class="facts">{{#consents}}<div><dt>{{status}}</dt><dd>{{count}}</dd></div>{{/consents}}</dl>
        {{/hasConsents}}
        </section>
        </div>
        <section>
        <h2 id="deliveries-heading">{{t.console.partners.column.deliveries}}</h2>
        <p><span class="badge {{healthClass}}">{{health}}</span></p>
        <dl class="facts tally">
        <div><dt>{{t.console.partner.tally.pending}}</dt><dd>{{pending}}</dd></div>
        <div><dt>{{t.console.partner.tally.retrying}}</dt><dd>{{retrying}}</dd></div>
        <div><dt>{{t.console.partner.tally.delivered}}</dt><dd>{{delivered}}</dd></div>
        <div><dt>{{t.console.partner.tally.abandoned}}</dt><dd>{{abandoned}}</dd></div>
        </dl>
        <h3 id="failed-heading">{{t.console.partner.failed}}</h3>
        {{^failed}}<p class="hint">{{t.console.partner.noFailed}}</p>{{/failed}}
        {{#hasFailed}}
        <div class="table" role="region" aria-labelledby="failed-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.console.partner.column.delivery}}</th><th scope="col">{{t.console.partner.column.kind}}</th><th scope="col">{{t.console.users.column.status}}</th><th scope="col">{{t.console.partner.column.attempts}}</th><th scope="col">{{t.console.partner.column.lastStatus}}</th><th scope="col">{{t.console.users.column.created}}</th><th scope="col">{{t.console.partner.column.next}}</th><th scope="col"><span class="visually-hidden">{{t.console.user.column.actions}}</span></th></tr></thead>
        <tbody>
        {{#failed}}<tr><td>{{id}}<br><span class="hint">{{subject}}</span></td><td>{{kind}}</td><td><span class="badge {{stateClass}}">{{state}}</span></td><td>{{attempts}}</td><td>{{lastStatus}}</td><td>{{created}}</td><td>{{next}}</td>
        <td>{{#retry}}<form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="small" aria-label="{{label}}">{{t.console.partner.retry}}</button></form>{{/retry}}</td></tr>{{/failed}}
        </tbody>
        </table>
        </div>
        {{/hasFailed}}
        </section>
        """

    static let partnerStyle = """
        dd.uri,ul.uris li{overflow-wrap:anywhere;font-family:ui-monospace,monospace;font-size:.88rem}
        body.console h3{font-size:1rem;margin:.9rem 0 .3rem}
        """
}
