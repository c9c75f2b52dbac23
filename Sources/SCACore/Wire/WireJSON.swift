import Foundation

/// The JSON coders every party uses for the API: RFC 3339 UTC dates, keys as declared.
package enum WireJSON {
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// One encoder made once, for paths that only encode (the server answers every request with
    /// it): a `JSONEncoder` may be shared as long as nobody changes its settings, so never
    /// change this one's; take ``encoder()`` for one of your own.
    package static let sharedEncoder: JSONEncoder = encoder()

    /// One decoder made once, for paths that only decode; never change its settings.
    package static let sharedDecoder: JSONDecoder = decoder()

    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension WireJSON {
    /// `value` as JSON bytes, identical to `sharedEncoder.encode(value)` at a fraction of its
    /// cost (see ``WireJSONEncoder``): what the server answers with.
    package static func encode(_ value: some Encodable) throws -> [UInt8] {
        try WireJSONEncoder().encode(value)
    }
}
