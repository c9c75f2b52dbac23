import Foundation
import HTTPTypes
import SCACore

/// Nonces the server hands out for DPoP proofs (RFC 9449 §8), so that a proof cannot be made
/// ahead of time: the time of issue, sealed. Any instance opens a nonce another made (they
/// share the sealing key), and nothing is stored.
package struct DPoPNonce: Sendable {
    /// How long a nonce is accepted after it is made.
    package static let lifetime: TimeInterval = 300
    static let sealingContext = "dpop-nonce"
    /// The header a nonce is sent in.
    package static let headerField = HTTPField.Name("DPoP-Nonce")!

    let box: SecretBox

    package init(box: SecretBox) {
        self.box = box
    }

    /// A fresh nonce, made at `now`.
    package func make(now: Date) throws -> String {
        var seconds = Int64(now.timeIntervalSince1970.rounded(.down)).bigEndian
        let bytes = withUnsafeBytes(of: &seconds) { Array($0) }
        return Base64URL.encode(try box.seal(bytes, context: Self.sealingContext))
    }

    /// Whether `nonce` was made by this server within ``lifetime`` of `now`.
    package func isFresh(_ nonce: String?, now: Date) -> Bool {
        guard let nonce, nonce.utf8.count <= 256, let sealed = Base64URL.decode(nonce),
            let bytes = try? box.open(sealed, context: Self.sealingContext), bytes.count == 8
        else { return false }
        let seconds = bytes.reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let age = now.timeIntervalSince1970 - TimeInterval(seconds)
        return age >= -DPoPProof.window && age <= Self.lifetime
    }
}
