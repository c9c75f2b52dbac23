/// How a request names a user (``SCAStore/challengeContext(user:deviceID:)``).
public enum UserLookup: Sendable, Equatable {
    case id(String)
    /// Compared lower-cased, as ``SCAStore/user(email:)``.
    case email(String)
    /// A normalized E.164 number, as ``SCAStore/user(loginPhone:)``.
    case loginPhone(String)
}
