import SCAEngine
/// The mustache templates of the hosted sign-up (``HostedSignUp``): the "New here?"
/// links of the sign-in page (a partial), the e-mail or phone number of a new account and its
/// password. `{{ }}` escapes HTML, as in ``PageTemplates``.
enum SignUpPageTemplates {
    static let all: [String: String] = [
        "signUpLink": signUpLink, "signup-email": email, "signup-phone": phone, "signup-password": password,
        "signUpFooter": footer,
    ]

    /// Below the e-mail and phone forms: back to sign-in, or cancel back to the partner.
    static let footer = """
        <p class="signup">{{t.signup.haveAccount}} <a href="{{signInLink}}">{{t.signup.signInLink}}</a></p>
        <form method="post" action="/signin/cancel" class="inline">
        <input type="hidden" name="csrf" value="{{cancelCsrf}}">
        <button type="submit" class="link">{{cancelLabel}}</button>
        </form>
        """

    static let signUpLink = """
        <p class="signup">{{t.signup.newHere}} {{#signUpEmailLink}}<a href="{{signUpEmailLink}}">{{t.signup.withEmail}}</a>{{/signUpEmailLink}}\
        {{#signUpBoth}} {{t.signup.or}} {{/signUpBoth}}\
        {{#signUpPhoneLink}}<a href="{{signUpPhoneLink}}">{{t.signup.withPhone}}</a>{{/signUpPhoneLink}}</p>
        """

    static let email = """
        <p class="lead">{{{lead}}}</p>
        <h1>{{t.signup.title}}</h1>
        <p class="hint">{{t.signup.email.hint}}</p>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/signin/signup">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="email">{{t.signin.email.label}}</label>
        <input id="email" name="email" type="email" autocomplete="email" required value="{{email}}">
        <button type="submit">{{t.signup.email.submit}}</button>
        </form>
        {{> signUpFooter}}
        """

    static let phone = """
        <p class="lead">{{{lead}}}</p>
        <h1>{{t.signup.title}}</h1>
        <p class="hint">{{t.signup.phone.hint}}</p>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/signin/signup/phone">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="phone">{{t.signup.phone.label}}</label>
        <input id="phone" name="phone" type="tel" autocomplete="tel" inputmode="tel" placeholder="{{t.signup.phone.example}}" required value="{{phone}}">
        <button type="submit">{{t.signup.phone.submit}}</button>
        </form>
        {{> signUpFooter}}
        """

    static let password = """
        <p class="lead">{{{lead}}}</p>
        <h1>{{t.signup.password.title}}</h1>
        {{#forAccount}}<p class="hint">{{{forAccount}}}</p>{{/forAccount}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/signin/password">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="password">{{passwordLabel}}</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required>
        <label for="confirm">{{t.signup.password.confirmLabel}}</label>
        <input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
        <button type="submit">{{t.signup.password.submit}}</button>
        </form>
        <form method="post" action="/signin/cancel" class="inline">
        <input type="hidden" name="csrf" value="{{cancelCsrf}}">
        <button type="submit" class="link">{{cancelLabel}}</button>
        </form>
        """

    static let style = """
        .signup{text-align:center;margin:1rem 0 0;color:#4a5563}
        .signup a{color:#27446b;font-weight:600}
        """
}
