import SCAEngine
/// The mustache templates of the hosted pages. `{{ }}` escapes HTML; the only unescaped value
/// is the layout's `{{{content}}}`, which is a page already rendered (and escaped) here.
enum PageTemplates {
    static let all: [String: String] = [
        "layout": layout, "error": error, "email": email, "factors": factors, "finished": finished,
        "operation": operation, "signed-out": signedOut, "first-party-email": firstPartyEmail,
        "email-form": emailForm, "passkey-form": passkeyForm,
    ]

    /// The e-mail step's form, posted to `{{base}}/email`: the partner sign-in's and the
    /// server's own pages' (the console, the account page).
    static let emailForm = """
        <form method="post" action="{{base}}/email">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="email">{{t.signin.email.label}}</label>
        <input id="email" name="email" type="email" autocomplete="username" required value="{{email}}">
        <button type="submit">{{t.page.continue}}</button>
        </form>
        """

    /// Sign-in with a passkey alone, posted to `{{base}}/passkey`; shown by passkey.js when the
    /// browser has WebAuthn.
    static let passkeyForm = """
        <section class="factor" data-passkey hidden>
        <form method="post" action="{{base}}/passkey">
        <input type="hidden" name="csrf" value="{{passkeyCsrf}}">
        <button type="submit" class="secondary">{{t.signin.passkey.button}}</button>
        </form>
        </section>
        <script src="/hosted/passkey.js" defer></script>
        """

    /// The first step of a sign-in to the server's own pages (the operator console, the account
    /// page): the e-mail, or a passkey alone. `base` is the page's sign-in path.
    static let firstPartyEmail = """
        <h1>{{heading}}</h1>
        <p class="lead">{{lead}}</p>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        {{>email-form}}
        {{>passkey-form}}
        """

    /// After a partner's logout, when it gave no address to go back to.
    static let signedOut = """
        <h1>{{heading}}</h1>
        <p class="lead">{{message}}</p>
        """

    /// What the user approves (``ApprovalDetails``): on the consent page, and on the sign-in
    /// pages of a request with `authorization_details`.
    static let operation = """
        <h1>{{headline}}</h1>
        <dl class="operation">
        {{#details}}<div><dt>{{label}}</dt><dd class="{{style}}">{{value}}</dd></div>{{/details}}
        </dl>
        <p class="hint">{{hint}}</p>
        """

    /// The page around every card: the language switch (links, so it works without script),
    /// the frame's name, the card and the frame's footer. `t` is the catalogue in the page's
    /// language (``CatalogueNode``).
    static let layout = """
        <!doctype html>
        <html lang="{{lang}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>{{title}}</title>
        <link rel="stylesheet" href="/hosted/style.css">
        </head>
        <body{{#bodyClass}} class="{{bodyClass}}"{{/bodyClass}}>
        {{#hasLanguages}}
        <nav class="languages" aria-label="{{t.language.switch.label}}"><ul>
        {{#languages}}<li><a href="{{href}}" lang="{{code}}" hreflang="{{code}}"{{#current}} aria-current="true"{{/current}}>{{name}}</a></li>{{/languages}}
        </ul></nav>
        {{/hasLanguages}}
        <header class="brand"><span class="mark" aria-hidden="true"></span>{{brand}}</header>
        <main class="card">
        {{{content}}}
        </main>
        <footer>{{footer}}</footer>
        </body>
        </html>
        """

    static let error = """
        <h1>{{heading}}</h1>
        <p class="error" role="alert">{{message}}</p>
        {{#returnURL}}<p><a class="button secondary" href="{{returnURL}}">{{returnLabel}}</a></p>{{/returnURL}}
        """

    /// `lead` and the other triple-brace values are catalogue sentences with a name in
    /// `<strong>`, escaped by ``PageWords/html(_:_:strong:)``.
    static let email = """
        <p class="lead">{{{lead}}}</p>
        {{#consent}}{{>operation}}{{/consent}}
        {{^consent}}<h1>{{t.signin.title}}</h1>{{/consent}}
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        {{>email-form}}
        {{#passkeyCsrf}}
        {{>passkey-form}}
        {{/passkeyCsrf}}
        {{#signUpLink}}{{> signUpLink}}{{/signUpLink}}
        <form method="post" action="/signin/cancel" class="inline">
        <input type="hidden" name="csrf" value="{{cancelCsrf}}">
        <button type="submit" class="link">{{cancelLabel}}</button>
        </form>
        """

    static let factors = """
        <p class="lead">{{{lead}}}</p>
        {{#consent}}{{>operation}}{{/consent}}
        {{^consent}}
        <h1>{{t.signin.factors.title}}</h1>
        {{#signingInAs}}<p class="hint">{{{signingInAs}}}</p>{{/signingInAs}}
        {{/consent}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        {{#phone}}{{>phone-offer}}{{/phone}}
        <p class="progress">{{progress}}</p>
        {{#passkey}}
        <section class="factor" data-passkey hidden>
        <h2>{{t.factor.passkey.heading}}</h2>
        <p class="error" role="alert" data-passkey-error hidden>{{t.factor.passkey.noAnswer}}</p>
        <form method="post" action="{{proofAction}}" data-passkey-form data-options="{{options}}">
        <input type="hidden" name="csrf" value="{{proofCsrf}}">
        <input type="hidden" name="method" value="passkey">
        <input type="hidden" name="assertion" value="">
        <button type="submit">{{label}}</button>
        </form>
        </section>
        <script src="/hosted/passkey.js" defer></script>
        {{/passkey}}
        {{#methods}}
        <section class="factor">
        <h2>{{heading}}</h2>
        {{#sendable}}
        <form method="post" action="{{sendAction}}" class="send">
        <input type="hidden" name="csrf" value="{{sendCsrf}}">
        <input type="hidden" name="method" value="{{method}}">
        <button type="submit" class="secondary">{{sendLabel}}</button>
        </form>
        {{/sendable}}
        <form method="post" action="{{proofAction}}">
        <input type="hidden" name="csrf" value="{{proofCsrf}}">
        <input type="hidden" name="method" value="{{method}}">
        <label for="{{method}}">{{label}}</label>
        <input id="{{method}}" name="credential" type="{{inputType}}" autocomplete="{{autocomplete}}"{{#numeric}} inputmode="numeric" pattern="[0-9]*"{{/numeric}} required>
        <button type="submit">{{t.page.continue}}</button>
        </form>
        </section>
        {{/methods}}
        <form method="post" action="{{cancelAction}}" class="inline">
        <input type="hidden" name="csrf" value="{{cancelCsrf}}">
        <button type="submit" class="link">{{cancelLabel}}</button>
        </form>
        """

    static let finished = """
        <h1>{{heading}}</h1>
        {{#message}}<p>{{message}}</p>{{/message}}
        {{#returnURL}}<p><a class="button" href="{{returnURL}}">{{returnLabel}}</a></p>{{/returnURL}}
        """

    static let style = """
        *{box-sizing:border-box}
        html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:17px;line-height:1.45;color:#1b1f24;background:#eef1f5}
        body{margin:0;padding:16px;min-height:100vh}
        .brand{max-width:30rem;margin:8px auto 16px;font-weight:600;color:#27446b;display:flex;align-items:center;gap:10px}
        .mark{width:22px;height:22px;border-radius:6px;background:#27446b;display:inline-block}
        .card{max-width:30rem;margin:0 auto;background:#fff;border-radius:14px;padding:22px 20px 18px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
        h1{font-size:1.45rem;line-height:1.25;margin:.2rem 0 1rem}
        h2{font-size:1rem;margin:0 0 .5rem}
        .lead{margin:0 0 .4rem;color:#4a5563}
        .hint{color:#4a5563;font-size:.93rem}
        .progress{font-size:.9rem;color:#4a5563;margin:.2rem 0 .8rem}
        label{display:block;font-weight:600;margin:.6rem 0 .3rem}
        input{display:block;width:100%;font-size:1.1rem;padding:.65rem .7rem;border:1px solid #9aa5b4;border-radius:8px;background:#fff}
        input:focus{outline:3px solid #9cc0f0;border-color:#27446b}
        button,.button{display:block;width:100%;margin-top:.8rem;font-size:1.05rem;font-weight:600;padding:.7rem 1rem;border-radius:8px;border:0;background:#27446b;color:#fff;cursor:pointer;text-align:center;text-decoration:none}
        button.secondary,.button.secondary{background:#e3e9f2;color:#1b2f4d}
        button.link{background:none;color:#27446b;text-decoration:underline;font-weight:500;padding:.4rem 0;width:auto;margin:1rem auto 0}
        form.inline{text-align:center}
        .factor{border-top:1px solid #e1e5eb;padding:1rem 0 .6rem}
        .factor form.send button{margin-top:0}
        .operation{margin:0 0 1rem;border:1px solid #e1e5eb;border-radius:10px;padding:.4rem .8rem}
        .operation div{display:flex;justify-content:space-between;gap:1rem;padding:.45rem 0;border-bottom:1px solid #eef1f5}
        .operation div:last-child{border-bottom:0}
        .operation dt{color:#4a5563;flex:none}
        .operation dd{margin:0;font-weight:600;text-align:right;min-width:0;overflow-wrap:anywhere}
        .operation dd.amount{font-size:1.2rem}
        .operation dd.iban{font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:500;letter-spacing:.02em}
        .error{background:#fdecec;color:#8a1c1c;border-radius:8px;padding:.6rem .8rem}
        .notice{background:#e8f3ea;color:#1d5b2c;border-radius:8px;padding:.6rem .8rem}
        footer{max-width:30rem;margin:16px auto;color:#5d6876;font-size:.82rem;text-align:center}
        .languages{max-width:30rem;margin:0 auto}
        .languages ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;justify-content:flex-end;gap:.15rem .9rem;font-size:.85rem}
        .languages a{color:#27446b;text-decoration:none;display:inline-block;padding:.2rem 0}
        .languages a:hover{text-decoration:underline}
        .languages a[aria-current]{font-weight:700;text-decoration:underline}
        h1,h2,.lead,.hint,.error,.notice,dd,p{overflow-wrap:break-word;hyphens:auto}
        @media (min-width:700px){body{padding:40px}.card{padding:30px 32px 24px}}
        @media (max-width:480px){.operation div{flex-direction:column;gap:.1rem}.operation dd{text-align:left}}
        """

    /// The base64url `decode` and `encode` every passkey script needs: WebAuthn speaks in
    /// buffers, the server in base64url.
    static let base64URLFunctions = """
          function decode(text) {
            var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
            while (base64.length % 4) { base64 += "="; }
            var binary = atob(base64), bytes = new Uint8Array(binary.length);
            for (var i = 0; i < binary.length; i++) { bytes[i] = binary.charCodeAt(i); }
            return bytes.buffer;
          }
          function encode(buffer) {
            var bytes = new Uint8Array(buffer), binary = "";
            for (var i = 0; i < bytes.length; i++) { binary += String.fromCharCode(bytes[i]); }
            return btoa(binary).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
          }
          """

    /// `/hosted/passkey.js`: shows the passkey sections, which are hidden without
    /// script, and answers a passkey form with `navigator.credentials.get` over the options in
    /// its `data-options`, posting the assertion (WebAuthn's JSON form) through the form, so
    /// the CSRF token and the redirect after it are the typed factors' own.
    static let passkeyScript = """
        "use strict";
        (function () {
          if (!window.PublicKeyCredential || !navigator.credentials) { return; }
          \(PageTemplates.base64URLFunctions)
          document.querySelectorAll("[data-passkey]").forEach(function (section) {
            section.hidden = false;
            var form = section.querySelector("form[data-passkey-form]");
            if (!form) { return; }
            var failure = section.querySelector("[data-passkey-error]");
            form.addEventListener("submit", function (event) {
              event.preventDefault();
              var options = JSON.parse(form.getAttribute("data-options"));
              var publicKey = {
                challenge: decode(options.challenge), timeout: options.timeout, rpId: options.rpId,
                userVerification: options.userVerification,
                allowCredentials: options.allowCredentials.map(function (credential) {
                  return { type: credential.type, id: decode(credential.id) };
                })
              };
              navigator.credentials.get({ publicKey: publicKey }).then(function (credential) {
                var response = credential.response;
                var assertion = {
                  id: credential.id, rawId: encode(credential.rawId), type: credential.type,
                  response: {
                    clientDataJSON: encode(response.clientDataJSON),
                    authenticatorData: encode(response.authenticatorData),
                    signature: encode(response.signature)
                  }
                };
                if (response.userHandle && response.userHandle.byteLength > 0) {
                  assertion.response.userHandle = encode(response.userHandle);
                }
                form.querySelector("input[name=assertion]").value = JSON.stringify(assertion);
                form.submit();
              }).catch(function () {
                if (failure) { failure.hidden = false; }
              });
            });
          });
        })();
        """
}
