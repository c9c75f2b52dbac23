import Foundation
import Hummingbird
import SCACore

extension Request {
    /// Decodes a JSON body of at most `limit` bytes.
    /// - Throws: `Problem` 415 unless the body is declared `application/json`, 413 for a larger
    ///   body, 400 for anything that is not the expected JSON. The detail names the field,
    ///   never its value (it may be a secret).
    package func decodeJSON<Value: Decodable>(_ type: Value.Type, limit: Int) async throws -> Value {
        try Self.decodeJSON(type, from: try await collectJSON(limit: limit))
    }

    /// The raw bytes of a JSON body of at most `limit` bytes, for a caller that needs them as
    /// sent (a device-signed request verifies its signature over them) before decoding.
    /// - Throws: `Problem` 415 unless the body is declared `application/json`, 413 for a larger body.
    func collectJSON(limit: Int) async throws -> ByteBuffer {
        // Only a JSON media type: a browser may send `text/plain` or a form across origins
        // without a CORS preflight, and such a body must never be acted upon.
        guard Self.isJSON(headers[.contentType]) else { throw Problem.unsupportedMediaType }
        do {
            return try await body.collect(upTo: limit)
        } catch {
            throw Problem.tooLarge(limit: limit)
        }
    }

    /// Decodes a collected JSON body. - Throws: `Problem` 400 naming the field, never its value.
    static func decodeJSON<Value: Decodable>(_ type: Value.Type, from buffer: ByteBuffer) throws -> Value {
        do {
            return try WireJSON.sharedDecoder.decode(Value.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw Problem.invalidRequest(describe(error))
        } catch {
            throw Problem.invalidRequest("body must be JSON")
        }
    }

    /// `application/json`, in any case, with or without parameters such as `charset`.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let joined = codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return joined.isEmpty ? "body" : joined
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is required"
        case .typeMismatch(_, let context): return "\(path(context.codingPath)) has the wrong type"
        case .valueNotFound(_, let context): return "\(path(context.codingPath)) must not be null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "body must be JSON" : "\(path(context.codingPath)) has an invalid value"
        @unknown default: return "body is invalid"
        }
    }
}
