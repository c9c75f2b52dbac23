import Crypto
import Foundation
import SCACore

/// What the browser says about a ceremony (`clientDataJSON`): its type, the challenge it
/// answered, and the origin that asked.
package struct CollectedClientData: Sendable, Equatable {
    package let type: String
    /// The challenge bytes, decoded from the strict base64url the browser writes.
    package let challenge: [UInt8]
    package let origin: String
    /// True when the call came from a frame of another origin.
    package let crossOrigin: Bool
    /// The top-level origin of a cross-origin call.
    package let topOrigin: String?
    /// SHA-256 of the bytes as received: the authenticator signed this hash.
    package let hash: [UInt8]

    private struct Fields: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
        let topOrigin: String?
    }

    /// Parses `clientDataJSON`, refusing anything that is not the object the ceremony defines.
    package init(_ json: [UInt8]) throws(WebAuthnError) {
        guard json.count <= 4096,
            let fields = try? JSONDecoder().decode(Fields.self, from: Data(json)),
            let challenge = Base64URL.decode(fields.challenge)
        else { throw .malformedClientData }
        type = fields.type
        self.challenge = challenge
        origin = fields.origin
        crossOrigin = fields.crossOrigin ?? false
        topOrigin = fields.topOrigin
        hash = Array(SHA256.hash(data: json))
    }
}
