import Crypto

/// The HMAC hash of an HOTP or TOTP code (RFC 6238 §1.2). The raw values are the spellings of
/// the `algorithm` parameter of otpauth URIs.
package enum OTPAlgorithm: String, Sendable, Codable, CaseIterable {
    /// HMAC-SHA-1: the default of RFC 4226 and the only one every authenticator app supports.
    case sha1 = "SHA1"
    case sha256 = "SHA256"
    case sha512 = "SHA512"

    /// HMAC of `message` under `key` with this algorithm's hash.
    func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        let key = SymmetricKey(data: key)
        switch self {
        case .sha1:
            // SHA-1 is sound inside HMAC; RFC 4226 and the authenticator apps require it.
            return Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key))
        case .sha256:
            return Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
        case .sha512:
            return Array(HMAC<SHA512>.authenticationCode(for: message, using: key))
        }
    }
}
