/// The COSE signature algorithms a relying party may accept, by their COSE identifiers.
package enum COSEAlgorithm: Int64, Sendable, CaseIterable, Codable {
    /// ECDSA with P-256 and SHA-256: what every platform authenticator offers.
    case es256 = -7
    /// Ed25519.
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256 (Windows Hello).
    case rs256 = -257
}
