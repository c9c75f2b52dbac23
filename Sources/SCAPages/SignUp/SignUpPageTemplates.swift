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
        <p class="signup">Have an account? <a href="{{signInLink}}">Sign in</a></p>
        <form method="post" action="/signin/cancel" class="inline">
        <input type="hidden" name="csrf" value="{{cancelCsrf}}">
        <button type="submit" class="link">Cancel and return to {{clientName}}</button>
        </form>
        """

    static let signUpLink = """
        <p class="signup">New here? {{#signUpEmailLink}}<a href="{{signUpEmailLink}}">Continue with your e-mail</a>{{/signUpEmailLink}}\
        {{#signUpBoth}} or {{/signUpBoth}}\
        {{#signUpPhoneLink}}<a href="{{signUpPhoneLink}}">Continue with your phone number</a>{{/signUpPhoneLink}}</p>
        """

    static let email = """
        <p class="lead"><strong>{{clientName}}</strong> asks you to sign in.</p>
        <h1>Create your account</h1>
        <p class="hint">We send a code to your e-mail address. If you have an account already, the code signs you in.</p>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/signin/signup">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="email">E-mail address</label>
        <input id="email" name="email" type="email" autocomplete="email" required value="{{email}}">
        <button type="submit">Send me a code</button>
        </form>
        {{> signUpFooter}}
        """

    static let phone = """
        <p class="lead"><strong>{{clientName}}</strong> asks you to sign in.</p>
        <h1>Create your account</h1>
        <p class="hint">We text a code to your phone. If you have an account with this number already, the code signs you in.</p>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/signin/signup/phone">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="phone">Phone number, with its country code</label>
        <input id="phone" name="phone" type="tel" autocomplete="tel" inputmode="tel" placeholder="+33 6 12 34 56 78" required value="{{phone}}">
        <button type="submit">Text me a code</button>
        </form>
        {{> signUpFooter}}
        """

    static let password = """
        <p class="lead"><strong>{{clientName}}</strong> asks you to sign in.</p>
        <h1>Choose your password</h1>
        {{#email}}<p class="hint">For your new account <strong>{{email}}</strong>.</p>{{/email}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/signin/password">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="password">New password (at least 8 characters)</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required>
        <label for="confirm">The same password again</label>
        <input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
        <button type="submit">Set password and continue</button>
        </form>
        <form method="post" action="/signin/cancel" class="inline">
        <input type="hidden" name="csrf" value="{{cancelCsrf}}">
        <button type="submit" class="link">Cancel and return to {{clientName}}</button>
        </form>
        """

    static let style = """
        .signup{text-align:center;margin:1rem 0 0;color:#4a5563}
        .signup a{color:#27446b;font-weight:600}
        """
}
