import Foundation
import SCACore

/// The parts of a compact JWS (`header.payload.signature`), read before its signature is
/// checked: the header says which key and algorithm to check it with.
package enum CompactJWS {
    /// The JSON of the header (`segment` 0) or the payload (1), decoded as `type`; nil when the
    /// token is not three base64url segments or the segment is not that JSON.
    package static func decode<Value: Decodable>(_ type: Value.Type, segment: Int, of token: String) -> Value? {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, (0...1).contains(segment), let bytes = Base64URL.decode(String(segments[segment])) else {
            return nil
        }
        return try? JSONDecoder().decode(Value.self, from: Data(bytes))
    }
}
