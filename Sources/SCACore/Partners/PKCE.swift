import Crypto

/// Proof Key for Code Exchange (RFC 7636), S256 only: a `plain` challenge would hand the
/// verifier to whoever sees the authorization request.
package enum PKCE {
    /// The one method accepted.
    package static let method = "S256"

    /// Whether `challenge` looks like a base64url SHA-256 (43 characters).
    package static func isWellFormedChallenge(_ challenge: String) -> Bool {
        challenge.utf8.count == 43 && challenge.utf8.allSatisfy(isBase64URL)
    }

    /// Whether `verifier` is 43 to 128 unreserved characters (RFC 7636 §4.1).
    package static func isWellFormedVerifier(_ verifier: String) -> Bool {
        (43...128).contains(verifier.utf8.count) && verifier.utf8.allSatisfy { isBase64URL($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "~") }
    }

    /// `base64url(SHA-256(verifier))`.
    package static func challenge(for verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(verifier.utf8))))
    }

    /// Whether `verifier` is well formed and hashes to `challenge`, compared in constant time.
    package static func verify(_ verifier: String, against challenge: String) -> Bool {
        guard isWellFormedVerifier(verifier) else { return false }
        return ConstantTime.equals(Array(Self.challenge(for: verifier).utf8), Array(challenge.utf8))
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
