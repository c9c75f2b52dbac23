import Crypto
import Foundation

/// The signature of a webhook POST: HMAC-SHA256, keyed with the client's signing secret, over
/// `timestamp + "." + raw body`, sent as `SCA-Webhook-Signature: v1=<hex>` next to
/// `SCA-Webhook-Timestamp` (unix seconds). Signing the timestamp lets the receiver refuse
/// replays outside its window (5 minutes).
package enum WebhookSignature {
    package static let timestampHeader = "SCA-Webhook-Timestamp"
    package static let signatureHeader = "SCA-Webhook-Signature"
    package static let idHeader = "SCA-Webhook-Id"

    /// `v1=<hex>` for `body` sent at `timestamp`.
    package static func sign(body: [UInt8], timestamp: Int, secret: String) -> String {
        let key = SymmetricKey(data: Array(secret.utf8))
        let message = Array("\(timestamp).".utf8) + body
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: key)
        return "v1=" + mac.map { String(format: "%02x", $0) }.joined()
    }
}
