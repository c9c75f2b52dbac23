/// Who may create their own account with `POST /v1/signup-or-in` (issue 17): the value of
/// `signUp`.
public enum SignUpMode: String, Sendable, CaseIterable {
    /// Nobody: the bank onboards its users itself. `signup-or-in` still signs known users in,
    /// and answers an unknown address exactly as when sign-up is on, only nothing is created.
    case off
    /// A new e-mail address proved by its one-time code becomes a user (see `signUpEmailDomains`).
    case email
}
