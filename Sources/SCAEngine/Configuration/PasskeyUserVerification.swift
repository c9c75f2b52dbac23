/// Whether a passkey proof must carry the authenticator's user verification (`webauthn.userVerification`).
package enum PasskeyUserVerification: String, Sendable, CaseIterable {
    /// Asked for; an assertion without it proves possession only and needs a second factor.
    case preferred
    /// Demanded: an assertion without it is refused as a wrong proof.
    case required
}
