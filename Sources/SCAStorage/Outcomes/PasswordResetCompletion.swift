/// The answer to applying a password reset (``SCAStore/resetPassword(_:)``).
public enum PasswordResetCompletion: Sendable, Equatable {
    /// The password is replaced, the restriction set or cleared, the PUK (if any) burnt and
    /// every session of the user ended, in one transaction.
    case reset(sessionsEnded: Int)
    /// The PUK was burnt meanwhile, or the sheet replaced or not the user's: nothing changed.
    case pukUsed
}
