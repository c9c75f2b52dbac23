// The risk and audit pages' templates and styles. The charts are inline SVG drawn from
// ``ConsoleCharts``' figures: coloured by the stylesheet (the pages allow no inline style), each
// with a title for a screen reader and a table of the same figures after it. The sections take
// no name of their own: the tables' scrolling regions are named after them, and two landmarks
// of one name would leave a screen reader's list ambiguous.
extension ConsoleTemplates {
    static let risk = """
        {{> console-nav}}
        <h1>{{t.console.risk.title}}</h1>
        <form method="get" action="/console/risk" class="quarter">
        <label for="quarter">{{t.console.risk.quarter.label}}</label>
        <div class="row">
        <select id="quarter" name="quarter">{{#quarters}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{value}}</option>{{/quarters}}</select>
        <button type="submit" class="small">{{t.console.risk.quarter.button}}</button>
        <a class="button small secondary" href="{{csvHref}}" download>{{t.console.risk.csv}}</a>
        </div>
        </form>
        <section>
        <h2 id="rates-heading">{{t.console.risk.rates.heading}}</h2>
        <p class="hint">{{ratesLead}}</p>
        {{#charts}}
        <h3 id="{{id}}-heading">{{name}}</h3>
        <svg class="chart" viewBox="0 0 480 240" role="img" aria-labelledby="{{id}}-title" data-type="{{type}}">
        <title id="{{id}}-title">{{title}}</title>
        {{#ticks}}<line class="grid" x1="{{left}}" x2="{{right}}" y1="{{y}}" y2="{{y}}"/><text class="tick" x="{{x}}" y="{{textY}}" text-anchor="end">{{label}}</text>
        {{/ticks}}
        {{#bars}}<rect class="bar{{#current}} current{{/current}}" x="{{x}}" y="{{y}}" width="{{width}}" height="{{height}}" data-quarter="{{quarter}}" data-rate="{{rate}}"><title>{{quarter}}: {{label}}</title></rect>
        <text class="value" x="{{labelX}}" y="{{labelY}}" text-anchor="middle" data-quarter="{{quarter}}">{{label}}</text>
        <text class="tick" x="{{labelX}}" y="{{axisY}}" text-anchor="middle">{{quarter}}</text>
        {{/bars}}
        {{#references}}<line class="ref {{style}}" x1="{{x1}}" x2="{{x2}}" y1="{{y}}" y2="{{y}}" data-reference="{{reference}}"><title>{{label}}</title></line>
        {{/references}}
        {{#frame}}<line class="axis" x1="{{left}}" x2="{{right}}" y1="{{bottom}}" y2="{{bottom}}"/>{{/frame}}
        </svg>
        <ul class="legend">
        <li><span class="swatch bar-swatch"></span>{{t.console.risk.legend.rate}}</li>
        {{#references}}<li><span class="swatch line {{style}}"></span>{{label}}</li>{{/references}}
        </ul>
        <div class="table" role="region" aria-labelledby="{{id}}-table" tabindex="0">
        <table>
        <caption id="{{id}}-table">{{title}}</caption>
        <thead><tr><th scope="col">{{t.console.risk.column.quarter}}</th><th scope="col">{{t.console.risk.column.volume}}</th><th scope="col">{{t.console.risk.column.fraud}}</th><th scope="col">{{t.console.risk.column.rate}}</th>{{#bandHeadings}}<th scope="col">{{.}}</th>{{/bandHeadings}}</tr></thead>
        <tbody>
        {{#rows}}<tr><th scope="row">{{quarter}}</th><td class="num">{{volume}}</td><td class="num">{{fraud}}</td><td class="num">{{rate}}</td>{{#bands}}<td><span class="badge {{stateClass}}">{{state}}</span></td>{{/bands}}</tr>
        {{/rows}}
        </tbody>
        </table>
        </div>
        {{/charts}}
        </section>
        {{#exemptions}}
        <section>
        <h2 id="exemptions-heading">{{t.console.risk.exemptions.heading}}</h2>
        <p class="hint">{{exemptionsLead}}</p>
        {{#empty}}<p class="notice" role="status">{{t.console.risk.exemptions.none}}</p>{{/empty}}
        <svg class="chart" viewBox="0 0 480 240" role="img" aria-labelledby="exemptions-title">
        <title id="exemptions-title">{{t.console.risk.exemptions.heading}}</title>
        {{#ticks}}<line class="grid" x1="{{left}}" x2="{{right}}" y1="{{y}}" y2="{{y}}"/><text class="tick" x="{{x}}" y="{{textY}}" text-anchor="end">{{label}}</text>
        {{/ticks}}
        {{#weeks}}{{#segments}}<rect class="ex-{{exemption}}" x="{{x}}" y="{{y}}" width="{{width}}" height="{{height}}" data-week="{{start}}" data-exemption="{{exemption}}" data-count="{{count}}"><title>{{label}}</title></rect>{{/segments}}
        {{#labelled}}<text class="tick" x="{{labelX}}" y="{{axisY}}" text-anchor="middle">{{axisLabel}}</text>{{/labelled}}
        {{/weeks}}
        {{#frame}}<line class="axis" x1="{{left}}" x2="{{right}}" y1="{{bottom}}" y2="{{bottom}}"/>{{/frame}}
        </svg>
        <ul class="legend">
        {{#legend}}<li><span class="swatch ex-{{exemption}}"></span>{{name}}</li>{{/legend}}
        </ul>
        <div class="table" role="region" aria-labelledby="exemptions-table" tabindex="0">
        <table>
        <caption id="exemptions-table">{{t.console.risk.exemptions.heading}}</caption>
        <thead><tr><th scope="col">{{t.console.risk.column.week}}</th>{{#legend}}<th scope="col">{{name}}</th>{{/legend}}<th scope="col">{{t.console.risk.column.total}}</th></tr></thead>
        <tbody>
        {{#rows}}<tr><th scope="row">{{start}}</th>{{#counts}}<td class="num">{{.}}</td>{{/counts}}<td class="num">{{total}}</td></tr>
        {{/rows}}
        </tbody>
        </table>
        </div>
        </section>
        {{/exemptions}}
        <section>
        <h2 id="tra-heading">{{t.console.risk.tra.heading}}</h2>
        <p class="hint">{{t.console.risk.tra.lead}}</p>
        {{^hasTRAChanges}}<p class="notice" role="status">{{t.console.risk.tra.none}}</p>{{/hasTRAChanges}}
        {{#hasTRAChanges}}
        <div class="table" role="region" aria-labelledby="tra-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.console.user.column.time}}</th><th scope="col">{{t.console.risk.column.band}}</th><th scope="col">{{t.console.risk.column.change}}</th><th scope="col">{{t.console.risk.column.reason}}</th><th scope="col">{{t.console.risk.column.entry}}</th></tr></thead>
        <tbody>
        {{#traChanges}}<tr><td>{{time}}</td><td>{{band}}</td><td><span class="badge {{changeClass}}">{{change}}</span></td><td>{{reason}}</td><td>{{#navAudit}}<a href="{{entryHref}}">{{entry}}</a>{{/navAudit}}{{^navAudit}}{{entry}}{{/navAudit}}</td></tr>
        {{/traChanges}}
        </tbody>
        </table>
        </div>
        {{/hasTRAChanges}}
        </section>
        <section>
        <h2 id="report-heading">{{reportHeading}}</h2>
        <div class="panels">
        {{#reportTypes}}
        <div class="panel">
        <h3>{{name}}</h3>
        <dl class="facts">
        <div><dt>{{t.console.risk.column.volume}}</dt><dd>{{volume}}</dd></div>
        <div><dt>{{t.console.risk.column.fraud}}</dt><dd>{{fraud}}</dd></div>
        <div><dt>{{t.console.risk.column.rate}}</dt><dd>{{rate}}</dd></div>
        {{#bands}}<div><dt>{{band}}</dt><dd><span class="badge {{stateClass}}">{{state}}</span></dd></div>{{/bands}}
        </dl>
        </div>
        {{/reportTypes}}
        </div>
        <h3 id="in-force-heading">{{t.console.risk.inForce}}</h3>
        <div class="table" role="region" aria-labelledby="in-force-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.console.risk.column.exemption}}</th><th scope="col">{{t.console.users.column.status}}</th><th scope="col">{{t.console.risk.column.reason}}</th></tr></thead>
        <tbody>
        {{#reportExemptions}}<tr><td>{{name}}</td><td><span class="badge {{stateClass}}">{{state}}</span></td><td lang="en">{{reason}}</td></tr>
        {{/reportExemptions}}
        </tbody>
        </table>
        </div>
        </section>
        """

    static let audit = """
        {{> console-nav}}
        <h1>{{t.console.audit.title}}</h1>
        <form method="get" action="/console/audit" class="filters">
        <div class="filter-grid">
        <div><label for="user">{{t.console.audit.filter.user}}</label><input id="user" name="user" value="{{user}}" autocomplete="off"></div>
        <div><label for="event">{{t.console.audit.filter.event}}</label><select id="event" name="event"><option value="">{{t.console.audit.filter.anyEvent}}</option>{{#events}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{value}}</option>{{/events}}</select></div>
        <div><label for="from">{{t.console.audit.filter.from}}</label><input id="from" name="from" type="date" value="{{from}}"></div>
        <div><label for="to">{{t.console.audit.filter.to}}</label><input id="to" name="to" type="date" value="{{to}}"></div>
        </div>
        <p class="hint">{{t.console.audit.filter.hint}}</p>
        <div class="row">
        <button type="submit" class="small">{{t.console.audit.filter.button}}</button>
        <a class="button small secondary" href="{{exportHref}}" download>{{t.console.audit.export}}</a>
        <a class="button small secondary" href="/console/audit/verify">{{t.console.audit.verify}}</a>
        </div>
        </form>
        {{^hasEntries}}<p class="notice" role="status">{{t.console.audit.none}}</p>{{/hasEntries}}
        {{#hasEntries}}
        <div class="table" role="region" aria-labelledby="audit-caption" tabindex="0">
        <table>
        <caption id="audit-caption">{{caption}}</caption>
        <thead><tr><th scope="col">{{t.console.audit.column.sequence}}</th><th scope="col">{{t.console.user.column.time}}</th><th scope="col">{{t.console.user.column.event}}</th><th scope="col">{{t.console.users.column.user}}</th><th scope="col">{{t.console.audit.column.outcome}}</th><th scope="col">{{t.console.user.column.detail}}</th><th scope="col">{{t.console.user.column.by}}</th></tr></thead>
        <tbody>
        {{#entries}}<tr><td class="num">{{sequence}}</td><td>{{time}}</td><td>{{event}}<br><span class="hint">{{name}}</span></td><td>{{#userHref}}<a href="{{userHref}}">{{userId}}</a>{{/userHref}}{{^userHref}}{{userId}}{{/userHref}}</td><td>{{outcome}}</td><td>{{detail}}</td><td>{{actor}}</td></tr>
        {{/entries}}
        </tbody>
        </table>
        </div>
        <nav class="pager" aria-label="{{t.console.audit.pages}}">
        {{#newestHref}}<a href="{{newestHref}}">{{t.console.audit.newest}}</a>{{/newestHref}}
        {{#olderHref}}<a href="{{olderHref}}">{{t.console.audit.older}}</a>{{/olderHref}}
        </nav>
        {{/hasEntries}}
        """

    static let auditVerify = """
        {{> console-nav}}
        <h1>{{t.console.audit.verify.title}}</h1>
        <p class="lead">{{t.console.audit.verify.lead}}</p>
        <dl class="facts chain">
        <div><dt>{{t.console.audit.verify.chain}}</dt><dd><span class="badge {{chainClass}}" data-chain="{{chainClass}}">{{chain}}</span>{{#chainDetail}}<br><span class="hint" lang="en">{{chainDetail}}</span>{{/chainDetail}}</dd></div>
        <div><dt>{{t.console.audit.verify.checkpoint}}</dt><dd><span class="badge {{checkpointClass}}" data-checkpoint="{{checkpointClass}}">{{checkpoint}}</span>{{#checkpointDetail}}<br><span class="hint" lang="en">{{checkpointDetail}}</span>{{/checkpointDetail}}</dd></div>
        </dl>
        <p><a class="button small secondary" href="/console/audit">{{t.console.audit.back}}</a></p>
        """

    static let reportStyle = """
        form.quarter .row,form.filters .row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
        form.quarter select,form.filters select{font-size:1rem;padding:.45rem .5rem;border:1px solid #9aa5b4;border-radius:8px;background:#fff;max-width:100%}
        form.filters input{font-size:1rem;padding:.45rem .5rem}
        .filter-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(13rem,1fr));gap:0 1rem}
        .filter-grid select{width:100%}
        a.button.small{width:auto}
        svg.chart{display:block;width:100%;max-width:40rem;height:auto;margin:.4rem 0 .2rem}
        svg.chart text{font-size:12px;fill:#2c3440}
        svg.chart .tick{font-size:11px;fill:#4a5563}
        svg.chart .value{font-weight:600}
        @media (max-width:600px){svg.chart text{font-size:14px}svg.chart .tick{font-size:15px}}
        svg.chart .axis{stroke:#4a5563;stroke-width:1}
        svg.chart .grid{stroke:#e1e5eb;stroke-width:1}
        svg.chart .bar{fill:#9dbbe0}
        svg.chart .bar.current{fill:#0072b2}
        svg.chart .ref{stroke-width:2;fill:none}
        .ref-1{stroke:#b36b00;stroke-dasharray:8 4}
        .ref-2{stroke:#007a5a;stroke-dasharray:3 3}
        .ref-3{stroke:#c03a00;stroke-dasharray:14 4 3 4}
        .ex-low_value{fill:#0072b2;background:#0072b2}
        .ex-trusted_beneficiary{fill:#e69f00;background:#e69f00}
        .ex-recurring{fill:#009e73;background:#009e73}
        .ex-tra{fill:#cc79a7;background:#cc79a7}
        .ex-account_info_180d{fill:#56b4e9;background:#56b4e9}
        ul.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.2rem 1.2rem;padding:0;margin:.2rem 0 .8rem;font-size:.9rem;color:#2c3440}
        .swatch{display:inline-block;width:.9rem;height:.9rem;margin-right:.4rem;vertical-align:-.1rem;border-radius:2px}
        .swatch.bar-swatch{background:#0072b2}
        .swatch.line{width:1.8rem;height:0;border-radius:0;vertical-align:.25rem;border-top:3px dashed}
        .swatch.ref-1{border-top-color:#b36b00}
        .swatch.ref-2{border-top-style:dotted;border-top-color:#007a5a}
        .swatch.ref-3{border-top-style:solid;border-top-color:#c03a00}
        td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        .pager{display:flex;gap:1.2rem;margin:.4rem 0 1rem}
        .pager a{color:#27446b;font-weight:600}
        dl.chain dd{text-align:right}
        dl.chain .badge{white-space:normal;text-align:left}
        """
}
