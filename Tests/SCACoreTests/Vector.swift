import Foundation
import Testing

/// Reads a published test-vector file from the `Vectors` resource folder.
enum Vector {
    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "no vector file \(name).json in the test bundle" }
    }

    static func load<Value: Decodable>(_ type: Value.Type, from name: String) throws -> Value {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors")
        else { throw Missing(name: name) }
        return try JSONDecoder().decode(type, from: Data(contentsOf: url))
    }
}

extension Array where Element == UInt8 {
    /// Bytes from an even-length hex string; test data only.
    init(hex: String) {
        let digits = Array(hex.utf8)
        self = stride(from: 0, to: digits.count, by: 2).map { index in
            UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) ?? 0
        }
    }

    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
