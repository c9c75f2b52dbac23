import Foundation

/// What an operator looks a user up by, beside the exact id and e-mail the store finds directly:
/// the start of an e-mail address, or a phone number the user receives codes on or signs in with.
public enum UserSearch: Sendable, Equatable {
    /// E-mail addresses that start with this text (compared lower-cased).
    case emailPrefix(String)
    /// Users whose SMS phone or sign-in phone is this number (E.164, exact).
    case phone(String)
}
