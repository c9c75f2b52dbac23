/// Who may create their own account with `POST /v1/signup-or-in`: the value of
/// `signUp`: one value per choice, `email,phone` for both.
package enum SignUpMode: String, Sendable, CaseIterable {
    /// Nobody: the bank onboards its users itself. `signup-or-in` still signs known users in,
    /// and answers an unknown address exactly as when sign-up is on, only nothing is created.
    case off
    /// A new e-mail address proved by its one-time code becomes a user (see `signUpEmailDomains`).
    case email
    /// A new phone number (E.164) proved by its SMS code becomes a user, with that number as
    /// its login phone and SMS phone.
    case phone
    /// Both: `signup-or-in` takes either an e-mail address or a phone number.
    case emailAndPhone = "email,phone"

    /// Whether a new e-mail address may become a user.
    package var allowsEmail: Bool { self == .email || self == .emailAndPhone }
    /// Whether a new phone number may become a user.
    package var allowsPhone: Bool { self == .phone || self == .emailAndPhone }
}
