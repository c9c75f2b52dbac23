import Crypto
import Foundation
import SCACore

/// What the browser says about a ceremony (`clientDataJSON`): its type, the challenge it
/// answered, and the origin that asked.
public struct CollectedClientData: Sendable, Equatable {
    public let type: String
    /// The challenge bytes, decoded from the strict base64url the browser writes.
    public let challenge: [UInt8]
    public let origin: String
    /// True when the call came from a frame of another origin.
    public let crossOrigin: Bool
    /// The top-level origin of a cross-origin call.
    public let topOrigin: String?
    /// SHA-256 of the bytes as received: the authenticator signed this hash.
    public let hash: [UInt8]

    private struct Fields: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
        let topOrigin: String?
    }

    /// Parses `clientDataJSON`, refusing anything that is not the object the ceremony defines.
    public init(_ json: [UInt8]) throws(WebAuthnError) {
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
