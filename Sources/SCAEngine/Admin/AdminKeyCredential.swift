import Crypto
import Foundation
import SCACore

/// The form of a scoped admin key: `ak_<16 hex digits>.<43 base64url characters>`. The part
/// before the dot is the key's id (not a secret: it finds the record); after it come 32 random
/// bytes. Only SHA-256 of the whole key is stored: a 256-bit random secret needs no slow hash.
enum AdminKeyCredential {
    /// The id of the key a bearer credential would be, or nil when it does not have the form.
    static func keyID(of presented: String) -> String? {
        let parts = presented.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, isKeyID(String(parts[0])), parts[1].utf8.count == 43,
            let secret = Base64URL.decode(String(parts[1])), secret.count == 32
        else { return nil }
        return String(parts[0])
    }

    /// `ak_` and 16 lower-case hex digits.
    static func isKeyID(_ id: String) -> Bool {
        id.hasPrefix("ak_") && id.utf8.count == 19
            && id.dropFirst(3).unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }

    /// A new key from `random`: its id and the whole key, to be shown once.
    static func make(random: any RandomSource) -> (id: String, key: String) {
        let id = "ak_" + random.bytes(8).map { String(format: "%02x", $0) }.joined()
        return (id, "\(id).\(Base64URL.encode(random.bytes(32)))")
    }

    static func hash(_ key: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(key.utf8)))
    }
}
