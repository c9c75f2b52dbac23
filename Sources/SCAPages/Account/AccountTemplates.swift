/// The account page's templates, styles and passkey script, compiled and served with the hosted
/// pages'. Every action is a form that works without JavaScript; only creating a passkey needs
/// the browser's WebAuthn, and says so when it is missing.
enum AccountTemplates {
    static let all: [String: String] = [
        "account-overview": overview, "account-passkey": passkey, "account-message": message,
        "account-change": change, "account-totp": totp, "account-sheet": sheet,
    ]

    /// One list of the overview: a table when there are rows, a sentence when there are none.
    static let overview = """
        <nav class="account-bar" aria-label="{{t.account.nav.label}}">
        <span class="who">{{t.account.nav.signedInAs}} <strong>{{email}}</strong></span>
        <form method="post" action="/account/signout">
        <input type="hidden" name="csrf" value="{{signOutCsrf}}">
        <button type="submit" class="small secondary">{{t.account.nav.signOut}}</button>
        </form>
        </nav>
        <h1>{{t.account.page.title}}</h1>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}

        <section>
        <h2 id="details-heading">{{t.account.details.title}}</h2>
        <dl class="details">
        {{#details}}<div><dt>{{label}}</dt><dd>{{value}}
        {{#pending}}<span class="pending">{{waiting}}</span>
        <form method="post" action="{{confirmAction}}" class="inline">
        <input type="hidden" name="csrf" value="{{confirmCsrf}}">
        <label for="code-{{channel}}">{{t.account.pending.code}}</label>
        <input id="code-{{channel}}" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required>
        <button type="submit" class="small">{{t.account.pending.confirm}}</button>
        </form>
        <form method="post" action="{{cancelAction}}" class="inline">
        <input type="hidden" name="csrf" value="{{cancelCsrf}}">
        <button type="submit" class="small secondary">{{t.account.pending.cancel}}</button>
        </form>
        {{/pending}}</dd>
        <dd><form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="small secondary">{{button}}</button></form></dd></div>
        {{/details}}
        </dl>
        </section>

        <section>
        <h2 id="devices-heading">{{t.account.devices.title}}</h2>
        {{^devices}}<p class="hint">{{t.account.devices.none}}</p>{{/devices}}
        {{#hasDevices}}
        <div class="table" role="region" aria-labelledby="devices-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.account.column.name}}</th><th scope="col">{{t.account.column.status}}</th><th scope="col">{{t.account.column.lastUsed}}</th><th scope="col"><span class="visually-hidden">{{t.account.column.actions}}</span></th></tr></thead>
        <tbody>
        {{#devices}}<tr><td>{{name}}<br><span class="hint">{{platform}}</span>
        {{#rename}}<form method="post" action="{{action}}" class="rename"><input type="hidden" name="csrf" value="{{csrf}}">
        <label for="rename-{{id}}" class="visually-hidden">{{label}}</label>
        <input id="rename-{{id}}" name="name" type="text" maxlength="64" required value="{{name}}">
        <button type="submit" class="small secondary">{{t.account.device.rename}}</button></form>{{/rename}}</td><td><span class="badge {{statusClass}}">{{status}}</span></td><td>{{lastUsed}}</td>
        <td><form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="small danger" aria-label="{{label}}">{{t.account.remove}}</button></form></td></tr>{{/devices}}
        </tbody>
        </table>
        </div>
        {{/hasDevices}}
        </section>

        <section>
        <h2 id="passkeys-heading">{{t.account.passkeys.title}}</h2>
        {{^passkeys}}<p class="hint">{{t.account.passkeys.none}}</p>{{/passkeys}}
        {{#hasPasskeys}}
        <div class="table" role="region" aria-labelledby="passkeys-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.account.column.name}}</th><th scope="col">{{t.account.column.added}}</th><th scope="col">{{t.account.column.lastUsed}}</th><th scope="col"><span class="visually-hidden">{{t.account.column.actions}}</span></th></tr></thead>
        <tbody>
        {{#passkeys}}<tr><td>{{name}}</td><td>{{added}}</td><td>{{lastUsed}}</td>
        <td><form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="small danger" aria-label="{{label}}">{{t.account.remove}}</button></form></td></tr>{{/passkeys}}
        </tbody>
        </table>
        </div>
        {{/hasPasskeys}}
        <form method="post" action="/account/passkeys/add">
        <input type="hidden" name="csrf" value="{{addPasskeyCsrf}}">
        <button type="submit" class="small secondary">{{t.account.passkeys.add}}</button>
        </form>
        </section>

        <section>
        <h2 id="sessions-heading">{{t.account.sessions.title}}</h2>
        <div class="table" role="region" aria-labelledby="sessions-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.account.column.started}}</th><th scope="col">{{t.account.column.lastUsed}}</th><th scope="col"><span class="visually-hidden">{{t.account.column.actions}}</span></th></tr></thead>
        <tbody>
        {{#sessions}}<tr><td>{{started}}</td><td>{{lastUsed}}</td>
        <td>{{#current}}<span class="badge ok">{{t.account.sessions.current}}</span>{{/current}}{{#end}}<form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="small secondary" aria-label="{{label}}">{{t.account.end}}</button></form>{{/end}}</td></tr>{{/sessions}}
        </tbody>
        </table>
        </div>
        {{#endOthers}}
        <form method="post" action="/account/sessions/end-others">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" class="small secondary">{{t.account.sessions.endOthers}}</button>
        </form>
        {{/endOthers}}
        </section>

        <section>
        <h2 id="partners-heading">{{t.account.partners.title}}</h2>
        {{^partners}}<p class="hint">{{t.account.partners.none}}</p>{{/partners}}
        {{#hasPartners}}
        <div class="table" role="region" aria-labelledby="partners-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.account.column.partner}}</th><th scope="col">{{t.account.column.may}}</th><th scope="col">{{t.account.column.since}}</th><th scope="col"><span class="visually-hidden">{{t.account.column.actions}}</span></th></tr></thead>
        <tbody>
        {{#partners}}<tr><td>{{name}}</td><td>{{may}}</td><td>{{since}}</td>
        <td><form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="small danger" aria-label="{{label}}">{{t.account.revoke}}</button></form></td></tr>{{/partners}}
        </tbody>
        </table>
        </div>
        {{/hasPartners}}
        </section>

        <section>
        <h2 id="consents-heading">{{t.account.consents.title}}</h2>
        {{^consents}}<p class="hint">{{t.account.consents.none}}</p>{{/consents}}
        {{#hasConsents}}
        <div class="table" role="region" aria-labelledby="consents-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.account.column.partner}}</th><th scope="col">{{t.account.column.what}}</th><th scope="col">{{t.account.column.status}}</th><th scope="col"><span class="visually-hidden">{{t.account.column.actions}}</span></th></tr></thead>
        <tbody>
        {{#consents}}<tr><td>{{partner}}</td><td>{{what}}</td><td>{{status}}</td>
        <td>{{#revoke}}<form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="small danger" aria-label="{{label}}">{{t.account.revoke}}</button></form>{{/revoke}}</td></tr>{{/consents}}
        </tbody>
        </table>
        </div>
        {{/hasConsents}}
        </section>

        <section>
        <h2 id="beneficiaries-heading">{{t.account.beneficiaries.title}}</h2>
        {{^beneficiaries}}<p class="hint">{{t.account.beneficiaries.none}}</p>{{/beneficiaries}}
        {{#hasBeneficiaries}}
        <div class="table" role="region" aria-labelledby="beneficiaries-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.account.column.name}}</th><th scope="col">{{t.consent.detail.iban}}</th><th scope="col">{{t.account.column.added}}</th><th scope="col"><span class="visually-hidden">{{t.account.column.actions}}</span></th></tr></thead>
        <tbody>
        {{#beneficiaries}}<tr><td>{{name}}</td><td>{{iban}}</td><td>{{added}}</td>
        <td><form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="small danger" aria-label="{{label}}">{{t.account.remove}}</button></form></td></tr>{{/beneficiaries}}
        </tbody>
        </table>
        </div>
        {{/hasBeneficiaries}}
        </section>

        <section>
        <h2 id="recovery-heading">{{t.account.recovery.title}}</h2>
        <p>{{recovery}}</p>
        {{#recoveryLocked}}<p class="error">{{t.account.recovery.locked}}</p>{{/recoveryLocked}}
        <form method="post" action="/account/settings/recoverySheet/start">
        <input type="hidden" name="csrf" value="{{recoveryCsrf}}">
        <button type="submit" class="small secondary">{{t.account.recovery.issue}}</button>
        </form>
        </section>

        <section>
        <h2 id="activity-heading">{{t.account.activity.title}}</h2>
        {{^activity}}<p class="hint">{{t.account.activity.none}}</p>{{/activity}}
        {{#hasActivity}}
        <div class="table" role="region" aria-labelledby="activity-heading" tabindex="0">
        <table>
        <thead><tr><th scope="col">{{t.account.column.time}}</th><th scope="col">{{t.account.column.event}}</th><th scope="col">{{t.account.column.network}}</th></tr></thead>
        <tbody>
        {{#activity}}<tr><td>{{time}}</td><td>{{what}}</td><td>{{network}}</td></tr>{{/activity}}
        </tbody>
        </table>
        </div>
        {{/hasActivity}}
        </section>
        """

    /// Naming and creating a passkey after the user's own confirmation. The form posts the
    /// credential the browser made; without WebAuthn the page says why nothing can be made here.
    static let passkey = """
        <h1>{{t.account.passkey.new.title}}</h1>
        <p class="lead">{{t.account.passkey.new.lead}}</p>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <p class="notice" data-passkey-unsupported>{{t.account.passkey.new.noScript}}</p>
        <section data-passkey-create hidden>
        <p class="error" role="alert" data-passkey-error hidden>{{t.account.passkey.new.failed}}</p>
        <form method="post" action="/account/passkeys" data-passkey-create-form data-options="{{options}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="credential" value="">
        <label for="passkey-name">{{t.account.passkey.new.name}}</label>
        <input id="passkey-name" name="name" type="text" maxlength="64" autocomplete="off" value="{{name}}">
        <button type="submit">{{t.account.passkey.new.button}}</button>
        </form>
        </section>
        <form method="post" action="/account/passkeys/cancel">
        <input type="hidden" name="csrf" value="{{cancelCsrf}}">
        <button type="submit" class="secondary">{{t.account.passkey.new.cancel}}</button>
        </form>
        <script src="/account/passkey.js" defer></script>
        """

    /// A change of one of the user's details, after its confirmation: the new value (twice
    /// for a secret), or nothing changed.
    static let change = """
        <h1>{{heading}}</h1>
        <p class="lead">{{lead}}</p>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="{{action}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        {{#field}}<label for="field-{{name}}">{{label}}</label>
        <input id="field-{{name}}" name="{{name}}" type="{{type}}" autocomplete="{{autocomplete}}"{{#numeric}} inputmode="numeric"{{/numeric}} required>{{/field}}
        {{#repeat}}<label for="field-{{name}}">{{label}}</label>
        <input id="field-{{name}}" name="{{name}}" type="{{type}}" autocomplete="{{autocomplete}}"{{#numeric}} inputmode="numeric"{{/numeric}} required>{{/repeat}}
        <button type="submit">{{t.account.change.save}}</button>
        </form>
        <form method="post" action="/account/settings/cancel">
        <input type="hidden" name="csrf" value="{{cancelCsrf}}">
        <button type="submit" class="secondary">{{t.account.change.cancel}}</button>
        </form>
        """

    /// A new authenticator app: the seed as a QR code drawn on the server (an SVG, no script),
    /// the same key as text, and the field for the app's first code.
    static let totp = """
        <h1>{{heading}}</h1>
        <p class="lead">{{lead}}</p>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <figure class="qr">{{{qr}}}
        <figcaption>{{t.account.totp.key}} <code class="secret">{{secret}}</code></figcaption>
        </figure>
        <form method="post" action="{{action}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        {{#field}}<label for="field-{{name}}">{{label}}</label>
        <input id="field-{{name}}" name="{{name}}" type="{{type}}" autocomplete="{{autocomplete}}" inputmode="numeric" maxlength="7" required>{{/field}}
        <button type="submit">{{t.account.totp.confirm}}</button>
        </form>
        <form method="post" action="/account/settings/cancel">
        <input type="hidden" name="csrf" value="{{cancelCsrf}}">
        <button type="submit" class="secondary">{{t.account.change.cancel}}</button>
        </form>
        """

    /// A new recovery sheet, shown once: the code and the PUKs in the order they are used.
    static let sheet = """
        <h1>{{heading}}</h1>
        <p class="lead">{{lead}}</p>
        <dl class="sheet">
        <div><dt>{{t.account.sheet.code}}</dt><dd><code>{{code}}</code></dd></div>
        <div><dt>{{t.account.sheet.issued}}</dt><dd>{{issued}}</dd></div>
        </dl>
        <h2>{{t.account.sheet.puks}}</h2>
        <ol class="puks">{{#puks}}<li><code>{{.}}</code></li>{{/puks}}</ol>
        <p><a class="button" href="/account">{{t.account.sheet.back}}</a></p>
        """

    /// A page with a heading, a sentence and the way back to the sign-in.
    static let message = """
        <h1>{{heading}}</h1>
        <p{{#isError}} class="error" role="alert"{{/isError}}>{{message}}</p>
        <p><a class="button secondary" href="/account">{{t.account.signin.again}}</a></p>
        """

    static let style = """
        body.account .brand,body.account .card,body.account footer,body.account .languages{max-width:52rem}
        .account-bar{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1rem;border-bottom:1px solid #e1e5eb;padding:0 0 .7rem;margin:0 0 1rem}
        .account-bar .who{color:#4a5563;font-size:.93rem;margin-right:auto;overflow-wrap:anywhere}
        .account-bar form{margin:0}
        body.account section{border-top:1px solid #e1e5eb;padding-top:.6rem}
        body.account td form{margin:0}
        body.account form.rename{display:flex;flex-wrap:wrap;gap:.3rem;margin:.35rem 0 0}
        body.account form.rename input{width:11rem;margin:0;padding:.3rem .45rem}
        .details{margin:0}
        .details>div{display:flex;flex-wrap:wrap;align-items:baseline;gap:.3rem 1rem;padding:.45rem 0;border-bottom:1px solid #eef1f4}
        .details dt{flex:0 0 11rem;font-weight:600}
        .details dd{margin:0;overflow-wrap:anywhere}
        .details dd:first-of-type{flex:1 1 14rem}
        .details form{margin:0}
        .details form.inline{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem;margin:.4rem 0 0}
        .details form.inline label{margin:0}
        .details form.inline input{width:8rem;margin:0}
        .details .pending{display:block;color:#7a4b00}
        .sheet div{display:flex;flex-wrap:wrap;gap:.2rem 1rem;padding:.3rem 0}
        .sheet dt{flex:0 0 9rem;font-weight:600}
        .sheet dd{margin:0}
        .sheet code,.puks code{font-size:1.05rem;letter-spacing:.04em}
        .puks{columns:2;column-gap:2rem;padding-left:1.6rem}
        .puks li{padding:.15rem 0}
        figure.qr{margin:1rem 0;text-align:center}
        figure.qr svg{max-width:100%;height:auto}
        figure.qr code.secret{font-size:1rem;letter-spacing:.05em;overflow-wrap:anywhere}
        """

    /// Creates the passkey with the options the page carries, then posts it in the form; shows
    /// the form only where the browser can, and says so where it cannot.
    static let script = """
        "use strict";
        (function () {
          if (!window.PublicKeyCredential || !navigator.credentials) { return; }
          \(PageTemplates.base64URLFunctions)
          document.querySelectorAll("[data-passkey-unsupported]").forEach(function (note) { note.hidden = true; });
          document.querySelectorAll("[data-passkey-create]").forEach(function (section) {
            section.hidden = false;
            var form = section.querySelector("form[data-passkey-create-form]");
            var failure = section.querySelector("[data-passkey-error]");
            form.addEventListener("submit", function (event) {
              event.preventDefault();
              if (failure) { failure.hidden = true; }
              var options = JSON.parse(form.getAttribute("data-options"));
              var publicKey = {
                rp: options.rp,
                user: { id: decode(options.user.id), name: options.user.name, displayName: options.user.displayName },
                challenge: decode(options.challenge), pubKeyCredParams: options.pubKeyCredParams, timeout: options.timeout,
                excludeCredentials: options.excludeCredentials.map(function (credential) {
                  return { type: credential.type, id: decode(credential.id) };
                }),
                authenticatorSelection: options.authenticatorSelection, attestation: options.attestation
              };
              navigator.credentials.create({ publicKey: publicKey }).then(function (credential) {
                var response = credential.response;
                var made = {
                  id: credential.id, rawId: encode(credential.rawId), type: credential.type,
                  response: {
                    clientDataJSON: encode(response.clientDataJSON),
                    attestationObject: encode(response.attestationObject)
                  }
                };
                form.querySelector("input[name=credential]").value = JSON.stringify(made);
                form.submit();
              }).catch(function () {
                if (failure) { failure.hidden = false; }
              });
            });
          });
        })();
        """
}
