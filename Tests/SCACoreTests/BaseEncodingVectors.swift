/// RFC 4648 §10, read from `rfc4648-base-encodings.json`.
struct BaseEncodingVectors: Decodable {
    let vectors: [Row]
    struct Row: Decodable {
        let ascii: String
        let base32: String
        let base64: String
    }

    static func load() throws -> [Row] {
        try Vector.load(Self.self, from: "rfc4648-base-encodings").vectors
    }
}
