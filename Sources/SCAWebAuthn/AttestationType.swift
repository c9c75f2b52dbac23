/// What a verified attestation statement showed.
package enum AttestationType: String, Sendable, Codable {
    /// No statement (`fmt: none`).
    case none
    /// The credential's own key signed the registration (`packed` without x5c).
    case `self`
    /// A certificate of the authenticator model signed it (`packed` with x5c).
    case basic
}
