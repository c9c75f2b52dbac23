import SCAEngine
/// The templates of "Approve on your phone" on the hosted consent page: the offer
/// (a partial of the factors page), the waiting page and the outcome page, their styles and
/// `/hosted/phone.js`. As in ``PageTemplates``, `{{ }}` escapes HTML.
enum PhoneApprovalTemplates {
    static let all: [String: String] = ["phone-offer": offer, "phone-wait": wait, "phone-result": result]

    /// Inside `{{#phone}}` of the factors page.
    static let offer = """
        <section class="factor phone-offer">
        <h2>{{t.phone.offer.heading}}</h2>
        <p class="hint">{{{hint}}}</p>
        <form method="post" action="{{action}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">{{t.phone.offer.button}}</button>
        </form>
        <p class="or"><span>{{t.phone.offer.or}}</span></p>
        </section>
        """

    /// Without script the `noscript` refresh reloads the page every few seconds; with it,
    /// /hosted/phone.js long-polls the status and the refresh is never parsed.
    static let wait = """
        <noscript><meta http-equiv="refresh" content="{{refresh}}"></noscript>
        <p class="lead">{{{lead}}}</p>
        <h1>{{headline}}</h1>
        <dl class="operation">
        {{#details}}<div><dt>{{label}}</dt><dd class="{{style}}">{{value}}</dd></div>{{/details}}
        </dl>
        <section class="phone-wait" data-phone-wait data-status="{{statusAction}}" data-csrf="{{statusCsrf}}" data-next="{{next}}">
        <div class="phone-head"><span class="spinner" aria-hidden="true"></span><h2>{{t.phone.wait.heading}}</h2></div>
        <p>{{{instructions}}}</p>
        {{#compare}}<p class="compare">{{{compare}}}</p>{{/compare}}
        <p class="hint" role="status">{{openFor}}</p>
        <noscript><p class="hint">{{refreshNote}}</p></noscript>
        </section>
        <script src="/hosted/phone.js" defer></script>
        <form method="post" action="{{cancelAction}}">
        <input type="hidden" name="csrf" value="{{cancelCsrf}}">
        <button type="submit" class="secondary">{{t.phone.wait.useAnotherWay}}</button>
        </form>
        <form method="post" action="{{refuseAction}}" class="inline">
        <input type="hidden" name="csrf" value="{{refuseCsrf}}">
        <button type="submit" class="link">{{refuseLabel}}</button>
        </form>
        """

    static let result = """
        <h1>{{heading}}</h1>
        <p class="{{tone}}" role="alert">{{message}}</p>
        {{#retryAction}}
        <form method="post" action="{{retryAction}}">
        <input type="hidden" name="csrf" value="{{retryCsrf}}">
        <button type="submit">{{t.phone.result.retry}}</button>
        </form>
        {{/retryAction}}
        {{#otherURL}}<p><a class="button secondary" href="{{otherURL}}">{{t.phone.result.otherWay}}</a></p>{{/otherURL}}
        {{#refuseAction}}
        <form method="post" action="{{refuseAction}}" class="inline">
        <input type="hidden" name="csrf" value="{{refuseCsrf}}">
        <button type="submit" class="link">{{refuseLabel}}</button>
        </form>
        {{/refuseAction}}
        {{#returnURL}}<p><a class="button" href="{{returnURL}}">{{returnLabel}}</a></p>{{/returnURL}}
        """

    /// Added to the pages' stylesheet.
    static let style = """

        .phone-offer{border-top:0;padding-top:.2rem}
        .or{display:flex;align-items:center;gap:.6rem;color:#5d6876;font-size:.9rem;margin:1rem 0 0}
        .or::before,.or::after{content:"";flex:1;border-top:1px solid #e1e5eb}
        .phone-wait{border:1px solid #c9d6ea;background:#f4f7fc;border-radius:10px;padding:.9rem 1rem;margin:0 0 .6rem}
        .phone-wait p{margin:.5rem 0}
        .phone-head{display:flex;align-items:center;gap:.7rem}
        .phone-head h2{margin:0}
        .spinner{width:20px;height:20px;flex:none;border-radius:50%;border:3px solid #c9d6ea;border-top-color:#27446b;animation:spin 1s linear infinite}
        @keyframes spin{to{transform:rotate(360deg)}}
        @media (prefers-reduced-motion:reduce){.spinner{animation:none}}
        .phone-note{background:#f4f7fc;color:#1b2f4d;border:1px solid #c9d6ea;border-radius:8px;padding:.6rem .8rem}
        .compare strong{display:block;margin:.4rem 0;padding:.5rem .7rem;background:#fff;border:1px dashed #9aa5b4;border-radius:8px;font-size:1.05rem}
        """

    /// `/hosted/phone.js`: one status request at a time, each held by the server until the
    /// phone answers or its wait runs out; then the next one. When the answer is in, the page
    /// goes to `data-next`, which shows it (or sends the user back to the partner). A network
    /// error waits five seconds before trying again; a refused request (the page expired)
    /// goes to `data-next` too, which says so.
    static let script = """
        "use strict";
        (function () {
          var box = document.querySelector("[data-phone-wait]");
          if (!box || !window.fetch) { return; }
          var status = box.getAttribute("data-status"), next = box.getAttribute("data-next");
          var body = "csrf=" + encodeURIComponent(box.getAttribute("data-csrf")) + "&wait=25";
          function poll() {
            fetch(status, {
              method: "POST", credentials: "same-origin", cache: "no-store",
              headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: body
            }).then(function (response) {
              if (response.status >= 400 && response.status < 500) { window.location.assign(next); return; }
              if (!response.ok) { throw new Error("status " + response.status); }
              return response.json().then(function (answer) {
                if (answer.status === "pending") { poll(); } else { window.location.assign(answer.next || next); }
              });
            }).catch(function () { window.setTimeout(poll, 5000); });
          }
          poll();
        })();
        """
}
