// The live overview.
extension ConsoleTemplates {
    static let overview = """
        {{> console-nav}}
        <h1>{{t.console.overview.title}}</h1>
        <p class="lead">{{t.console.overview.lead}}</p>
        <p class="hint">{{window}} · <a href="/console/overview">{{t.console.overview.refresh}}</a></p>
        <div class="sparks">
        {{#sparklines}}
        <section class="spark" aria-labelledby="{{id}}-name">
        <h2 id="{{id}}-name">{{name}}</h2>
        <p class="spark-total">{{total}}</p>
        <svg class="sparkline" viewBox="0 0 240 48" preserveAspectRatio="none" role="img" aria-labelledby="{{id}}-title" data-series="{{series}}" data-total="{{total}}" data-counts="{{counts}}">
        <title id="{{id}}-title">{{summary}}</title>
        <polygon class="area" points="{{area}}"/>
        <polyline class="line" points="{{line}}"/>
        </svg>
        <p class="hint">{{detail}}</p>
        </section>
        {{/sparklines}}
        </div>
        <div class="table" role="region" aria-labelledby="overview-caption" tabindex="0">
        <table>
        <caption id="overview-caption">{{t.console.overview.caption}}</caption>
        <thead><tr><th scope="col">{{t.console.overview.column.series}}</th><th scope="col">{{t.console.overview.column.total}}</th><th scope="col">{{t.console.overview.column.now}}</th><th scope="col">{{t.console.overview.column.peak}}</th></tr></thead>
        <tbody>
        {{#sparklines}}<tr><th scope="row">{{name}}</th><td data-total="{{series}}">{{total}}</td><td>{{current}}</td><td>{{peak}}</td></tr>{{/sparklines}}
        </tbody>
        </table>
        </div>
        """

    static let overviewStyle = """
        .sparks{display:grid;grid-template-columns:minmax(0,1fr);gap:1rem;margin:.8rem 0 1.2rem}
        @media (min-width:640px){.sparks{grid-template-columns:repeat(2,minmax(0,1fr))}}
        @media (min-width:1000px){.sparks{grid-template-columns:repeat(3,minmax(0,1fr))}}
        .spark{border:1px solid #e1e5eb;border-radius:8px;padding:.7rem .9rem;margin:0}
        .spark h2{font-size:.95rem;margin:0;color:#2c3440}
        .spark-total{font-size:1.6rem;font-weight:700;margin:.2rem 0;color:#1f2d44}
        svg.sparkline{display:block;width:100%;height:48px}
        svg.sparkline .area{fill:#dbe7f7;stroke:none}
        svg.sparkline .line{fill:none;stroke:#27446b;stroke-width:1.5;vector-effect:non-scaling-stroke}
        .spark .hint{margin:.3rem 0 0}
        """
}
