/// The life of a registered passkey.
public enum PasskeyStatus: String, Codable, Sendable, CaseIterable {
    /// Usable as a proof.
    case active
    /// Its signature counter went backwards: the key may have been cloned. Refused from then
    /// on; only its owner or an operator can remove it.
    case suspect
}
