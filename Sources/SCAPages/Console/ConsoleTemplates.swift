/// The operator console's templates and styles, compiled with the hosted pages'. The console
/// uses the pages' layout in a wider frame; its pages start with the same bar (``nav``).
enum ConsoleTemplates {
    static let all: [String: String] = [
        "console-nav": nav, "console-users": users, "console-user": user,
        "console-message": message, "console-risk": risk, "console-audit": audit, "console-audit-verify": auditVerify,
        "console-partners": partners, "console-partner": partner, "console-overview": overview,
    ]

    /// The bar above every signed-in page: who is signed in, the search, signing out.
    static let nav = """
        <nav class="console-bar" aria-label="{{t.console.nav.label}}">
        <a href="/console/users">{{t.console.nav.users}}</a>
        {{#navRisk}}<a href="/console/overview">{{t.console.nav.overview}}</a>{{/navRisk}}
        {{#navRisk}}<a href="/console/risk">{{t.console.nav.risk}}</a>{{/navRisk}}
        {{#navAudit}}<a href="/console/audit">{{t.console.nav.audit}}</a>{{/navAudit}}
        {{#navPartners}}<a href="/console/partners">{{t.console.nav.partners}}</a>{{/navPartners}}
        <span class="who">{{t.console.nav.signedInAs}} <strong>{{operator}}</strong></span>
        <form method="post" action="/console/signout">
        <input type="hidden" name="csrf" value="{{signOutCsrf}}">
        <button type="submit" class="small secondary">{{t.console.nav.signOut}}</button>
        </form>
        </nav>
        """

    static let users = """
        {{> console-nav}}
        <h1>{{t.console.users.title}}</h1>
        <form method="get" action="/console/users" class="search" role="search">
        <label for="q">{{t.console.users.search.label}}</label>
        <p class="hint" id="q-hint">{{t.console.users.search.hint}}</p>
        <div class="search-row">
        <input id="q" name="q" type="search" value="{{query}}" aria-describedby="q-hint" autocomplete="off">
        <button type="submit" class="small">{{t.console.users.search.button}}</button>
        </div>
        </form>
        {{#searched}}
        {{#none}}<p class="notice" role="status">{{t.console.users.none}}</p>{{/none}}
        {{#hasResults}}
        <div class="table" role="region" aria-labelledby="results-caption" tabindex="0">
        <table>
        <caption id="results-caption">{{resultsCaption}}</caption>
        <thead><tr><th scope="col">{{t.console.users.column.user}}</th><th scope="col">{{t.console.users.column.status}}</th><th scope="col">{{t.console.users.column.factors}}</th><th scope="col">{{t.console.users.column.created}}</th><th scope="col">{{t.console.users.column.lastSCA}}</th></tr></thead>
        <tbody>
        {{#results}}
        <tr><td><a href="{{href}}">{{email}}</a>{{#phone}}<br><span class="hint">{{phone}}</span>{{/phone}}</td><td><span class="badge {{statusClass}}">{{status}}</span></td><td>{{factors}}</td><td>{{created}}</td><td>{{lastSCA}}</td></tr>
        {{/results}}
        </tbody>
        </table>
        </div>
        {{#next}}<p><a href="{{next}}">{{t.console.users.next}}</a></p>{{/next}}
        {{/hasResults}}
        {{/searched}}
        """

    static let user = """
        {{> console-nav}}
        <h1>{{email}}</h1>
        <p class="hint">{{userId}}{{#phone}} · {{phone}}{{/phone}} · {{created}}</p>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <div class="panels">
        <section class="panel">
        <h2 id="access-heading">{{t.console.user.access}}</h2>
        <p><span class="badge {{statusClass}}">{{status}}</span></p>
        <dl class="facts">
        <div><dt>{{t.console.user.failedAttempts}}</dt><dd>{{failedAttempts}}</dd></div>
        <div><dt>{{t.console.user.temporaryBlocks}}</dt><dd>{{temporaryBlocks}}</dd></div>
        <div><dt>{{t.console.user.nextBlockLabel}}</dt><dd>{{nextBlock}}</dd></div>
        <div><dt>{{t.console.users.column.lastSCA}}</dt><dd>{{lastSCA}}</dd></div>
        </dl>
        {{#unblock}}
        <form method="post" action="{{action}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">{{t.console.user.unblock}}</button>
        </form>
        {{/unblock}}
        {{#restricted}}<p><span class="badge warn">{{restricted}}</span></p>{{/restricted}}
        {{#liftRestriction}}
        <form method="post" action="{{action}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">{{t.console.user.liftRestriction}}</button>
        </form>
        {{/liftRestriction}}
        </section>
        <section class="panel">
        <h2 id="factors-heading">{{t.console.user.factors}}</h2>
        <ul class="plain">{{#factors}}<li>{{.}}</li>{{/factors}}</ul>
        {{#removeTOTP}}
        <form method="post" action="{{action}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" class="small secondary">{{t.console.user.removeTOTP}}</button>
        </form>
        {{/removeTOTP}}
        <h2 id="roles-heading">{{t.console.user.roles}}</h2>
        {{^rolesForm}}<p>{{roles}}</p>{{/rolesForm}}
        {{#rolesForm}}
        <form method="post" action="{{action}}" class="roles">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <fieldset>
        <legend>{{t.console.user.rolesLegend}}</legend>
        {{#roles}}<div class="check"><input type="checkbox" id="{{id}}" name="{{field}}"{{#checked}} checked{{/checked}}><label for="{{id}}">{{name}}</label></div>{{/roles}}
        </fieldset>
        <button type="submit" class="small secondary">{{t.console.user.saveRoles}}</button>
        </form>
        {{/rolesForm}}
        </section>
        </div>
        {{#showsDevices}}
        <section>
        <h2 id="devices-heading">{{t.console.user.devices}}</h2>
        {{^devices}}<p class="hint">{{t.console.user.noDevices}}</p>{{/devices}}
        {{#hasDevices}}
        <div class="table" role="region" aria-labelledby="devices-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.console.user.column.name}}</th><th scope="col">{{t.console.user.column.platform}}</th><th scope="col">{{t.console.users.column.status}}</th><th scope="col">{{t.console.user.column.lastUsed}}</th><th scope="col"><span class="visually-hidden">{{t.console.user.column.actions}}</span></th></tr></thead>
        <tbody>
        {{#devices}}
        <tr><td>{{name}}<br><span class="hint">{{id}}</span></td><td>{{platform}}</td><td><span class="badge {{statusClass}}">{{status}}</span></td><td>{{lastUsed}}</td>
        <td>{{#remove}}<form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="small danger" aria-label="{{label}}">{{t.console.user.remove}}</button></form>{{/remove}}</td></tr>
        {{/devices}}
        </tbody>
        </table>
        </div>
        {{/hasDevices}}
        <h2 id="passkeys-heading">{{t.console.user.passkeys}}</h2>
        {{^passkeys}}<p class="hint">{{t.console.user.noPasskeys}}</p>{{/passkeys}}
        {{#hasPasskeys}}
        <div class="table" role="region" aria-labelledby="passkeys-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.console.user.column.name}}</th><th scope="col">{{t.console.users.column.status}}</th><th scope="col">{{t.console.users.column.created}}</th><th scope="col">{{t.console.user.column.lastUsed}}</th><th scope="col"><span class="visually-hidden">{{t.console.user.column.actions}}</span></th></tr></thead>
        <tbody>
        {{#passkeys}}
        <tr><td>{{name}}</td><td>{{status}}</td><td>{{created}}</td><td>{{lastUsed}}</td>
        <td>{{#remove}}<form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="small danger" aria-label="{{label}}">{{t.console.user.remove}}</button></form>{{/remove}}</td></tr>
        {{/passkeys}}
        </tbody>
        </table>
        </div>
        {{/hasPasskeys}}
        </section>
        {{/showsDevices}}
        <section>
        <h2 id="sessions-heading">{{t.console.user.sessions}}</h2>
        {{^sessions}}<p class="hint">{{t.console.user.noSessions}}</p>{{/sessions}}
        {{#hasSessions}}
        <div class="table" role="region" aria-labelledby="sessions-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.console.user.column.application}}</th><th scope="col">{{t.console.user.column.started}}</th><th scope="col">{{t.console.user.column.lastUsed}}</th><th scope="col"><span class="visually-hidden">{{t.console.user.column.actions}}</span></th></tr></thead>
        <tbody>
        {{#sessions}}<tr><td>{{application}}</td><td>{{started}}</td><td>{{lastUsed}}</td>
        <td>{{#end}}<form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="small secondary" aria-label="{{label}}">{{t.console.user.end}}</button></form>{{/end}}</td></tr>{{/sessions}}
        </tbody>
        </table>
        </div>
        {{/hasSessions}}
        {{#endSessions}}
        <form method="post" action="{{action}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" class="secondary">{{t.console.user.endSessions}}</button>
        </form>
        {{/endSessions}}
        {{#hasPartners}}
        <h2 id="partners-heading">{{t.console.user.partnerSignIns}}</h2>
        <div class="table" role="region" aria-labelledby="partners-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.console.user.column.partner}}</th><th scope="col">{{t.console.user.column.lastSignIn}}</th><th scope="col">{{t.console.user.column.openSessions}}</th><th scope="col">{{t.console.user.column.openConsents}}</th><th scope="col"><span class="visually-hidden">{{t.console.user.column.actions}}</span></th></tr></thead>
        <tbody>
        {{#partners}}<tr><td>{{name}}<br><span class="hint">{{client}}</span></td><td>{{lastSignIn}}</td><td>{{sessions}}</td><td>{{consents}}</td>
        <td>{{#revoke}}<form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="small danger" aria-label="{{label}}">{{t.console.user.revokePartner}}</button></form>{{/revoke}}</td></tr>{{/partners}}
        </tbody>
        </table>
        </div>
        {{/hasPartners}}
        </section>
        <section>
        <h2 id="timeline-heading">{{t.console.user.timeline}}</h2>
        {{^timeline}}<p class="hint">{{t.console.user.noEvents}}</p>{{/timeline}}
        {{#hasTimeline}}
        <div class="table" role="region" aria-labelledby="timeline-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.console.user.column.time}}</th><th scope="col">{{t.console.user.column.event}}</th><th scope="col">{{t.console.user.column.detail}}</th><th scope="col">{{t.console.user.column.by}}</th></tr></thead>
        <tbody>
        {{#timeline}}<tr><td>{{time}}</td><td>{{event}}</td><td>{{detail}}</td><td>{{actor}}</td></tr>{{/timeline}}
        </tbody>
        </table>
        </div>
        {{/hasTimeline}}
        </section>
        """

    /// A page with a heading, a sentence and a way on: refused, signed out, not found.
    static let message = """
        <h1>{{heading}}</h1>
        <p{{#isError}} class="error" role="alert"{{/isError}}>{{message}}</p>
        <p><a class="button secondary" href="/console">{{t.console.signin.again}}</a></p>
        """

    static let style = """
        body.console .brand,body.console .card,body.console footer,body.console .languages{max-width:72rem}
        body.console .card{padding:18px 20px}
        .console-bar{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1.2rem;border-bottom:1px solid #e1e5eb;padding:0 0 .7rem;margin:0 0 1rem}
        .console-bar a{color:#27446b;font-weight:600}
        .console-bar .who{color:#4a5563;font-size:.93rem;margin-left:auto}
        .console-bar form{margin:0}
        button.small,.button.small{display:inline-block;width:auto;margin:0;padding:.4rem .8rem;font-size:.92rem}
        button.danger{background:#a32121;color:#fff}
        .search-row{display:flex;gap:.5rem;align-items:stretch}
        .search-row input{flex:1;min-width:0}
        body.console h1{font-size:1.35rem;overflow-wrap:anywhere;hyphens:none}
        .panels{display:grid;grid-template-columns:minmax(0,1fr);gap:0 2rem}
        .panel{border-top:1px solid #e1e5eb;padding:.8rem 0}
        section{margin:0 0 1rem}
        section h2{margin-top:1rem}
        .table{overflow-x:auto;margin:.3rem 0 .8rem;position:relative}
        .table:focus{outline:3px solid #9cc0f0}
        table{border-collapse:collapse;width:100%;font-size:.93rem}
        caption{text-align:left;color:#4a5563;padding:.3rem 0}
        th,td{text-align:left;padding:.5rem .6rem;border-bottom:1px solid #e1e5eb;vertical-align:top}
        th{font-weight:600;color:#2c3440;background:#f5f7fa}
        td a{color:#27446b;font-weight:600}
        .badge{display:inline-block;padding:.15rem .55rem;border-radius:999px;font-size:.85rem;font-weight:600;white-space:nowrap}
        .badge.ok{background:#e3f1e6;color:#1d5b2c}
        .badge.warn{background:#fdf1d8;color:#6b4700}
        .badge.bad{background:#fbe3e3;color:#8a1c1c}
        .badge.off{background:#eceff3;color:#3d4652}
        dl.facts{margin:.4rem 0}
        dl.facts div{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.2rem 1rem;padding:.3rem 0;border-bottom:1px solid #eef1f5}
        .panel .badge{white-space:normal}
        dl.facts dt{color:#4a5563}
        dl.facts dd{margin:0;font-weight:600}
        ul.plain{margin:.2rem 0 .6rem;padding-left:1.2rem}
        form.roles fieldset{border:0;margin:0;padding:0}
        form.roles legend{color:#4a5563;font-size:.93rem;padding:0;margin-bottom:.3rem}
        .check{display:flex;align-items:center;gap:.5rem;margin:.2rem 0}
        .check input{width:auto;margin:0}
        .check label{margin:0;font-weight:500}
        form.roles button{margin-top:.5rem}
        .visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
        @media (min-width:900px){.panels{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}}
        """ + reportStyle + partnerStyle + overviewStyle
}
