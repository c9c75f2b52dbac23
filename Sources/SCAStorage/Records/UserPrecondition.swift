/// What a user must still look like for a ``UserUpdate`` to apply: the compare half of a
/// compare-and-set on the user row. The backends load the row inside the write,
/// ask ``holds(for:)`` and refuse with `StoreError.conflict("precondition")` when it does not,
/// so of parallel writers that read the same user exactly the first one lands.
public enum UserPrecondition: Sendable, Equatable {
    /// No password, PIN or TOTP seed yet: a sign-up's second element is added at most once
    /// (two parallel enrolments of one new user never both set a secret).
    case noSecrets
    /// The profile is still the one the writer read: a read-modify-write of the profile never
    /// silently drops a field another writer set meanwhile.
    case profile(UserProfile)
    /// The password hash is still the one a login just verified: its re-hash never replaces a
    /// password changed meanwhile.
    case passwordHash(String)
    /// The same for the PIN.
    case pinHash(String)

    /// Whether `user`, as stored now, still meets the precondition.
    public func holds(for user: UserRecord) -> Bool {
        switch self {
        case .noSecrets: user.passwordHash == nil && user.pinHash == nil && user.sealedTOTPSeed == nil
        case .profile(let expected): user.profile == expected
        case .passwordHash(let expected): user.passwordHash == expected
        case .pinHash(let expected): user.pinHash == expected
        }
    }

    /// The `StoreError.conflict` value a refused precondition throws.
    public static let conflictField = "precondition"
}
