/// The rules a partner client is held to, chosen when it is registered.
public enum ClientProfile: String, Codable, Sendable, CaseIterable {
    /// OAuth 2.0 with PKCE: a shared secret, a signed assertion or none (a public client), and
    /// authorization requests by query or pushed.
    case standard
    /// The FAPI 2.0 Security Profile, for regulated open banking: the client proves itself only
    /// with a signed assertion (`private_key_jwt`, ES256, PS256 or EdDSA), never a shared secret,
    /// and starts a sign-in only with a pushed authorization request (PAR).
    case fapi2
}
