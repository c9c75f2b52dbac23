/// How much the relying party wants to know about the authenticator that made a credential,
/// and the least it accepts.
///
/// Without a metadata service the server cannot tell a genuine authenticator model from a
/// forged certificate, so attestation here proves consistency, not provenance: `direct` makes
/// sure a certificate was presented and signed the registration, for deployments that record
/// it for later review.
package enum AttestationConveyance: String, Sendable, CaseIterable, Codable {
    /// Ask for none; accept `none`, self attestation and certificates alike.
    case none
    /// Ask for an attestation the client may anonymise; refuse `none`.
    case indirect
    /// Ask for the authenticator's own attestation; accept only a certificate (`packed` x5c).
    case direct
}
