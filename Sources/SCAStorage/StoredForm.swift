import Foundation
import SCACore

/// The JSON text written to list and object columns. Every backend writes the same text, so
/// keys are sorted and equal values are stored as equal text.
package enum JSONColumn {
    package static func text(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Made once: a store writes several JSON columns per row. Its settings never change.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A list of raw values, such as a challenge's methods, written at every update of its row.
    /// Identifiers (letters, digits, `_`, `-`, `.`) are written directly, as the encoder writes
    /// them, without its machinery; any other text goes through the encoder.
    package static func text<Value: RawRepresentable>(rawValues: [Value]) throws -> String where Value.RawValue == String {
        var text = "["
        for (index, value) in rawValues.enumerated() {
            let raw = value.rawValue
            guard raw.utf8.allSatisfy(isIdentifierByte) else { return try self.text(rawValues.map(\.rawValue)) }
            if index > 0 { text += "," }
            text += "\"" + raw + "\""
        }
        return text + "]"
    }

    /// A string map, such as an audit entry's details (written with every entry), as a JSON
    /// object with its members sorted, written directly (``JCS/appendObject(_:to:)``) rather
    /// than through the encoder. The text differs from the encoder's only in how it escapes;
    /// both decode to the same map.
    package static func text(strings: [String: String]) -> String {
        var output: [UInt8] = []
        JCS.appendObject(strings, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// The strings of a JSON array of identifiers, as ``text(rawValues:)`` writes it (no space,
    /// no escape), read without a `JSONDecoder`: challenge rows carry four such lists and are
    /// read on every proof. Nil for any other text, which the decoder then reads.
    package static func identifiers(in text: String) -> [String]? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return nil }
        var values: [String] = []
        var index = 1
        let end = bytes.count - 1
        while index < end {
            if !values.isEmpty {
                guard bytes[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var close = start
            while close < end, isIdentifierByte(bytes[close]) { close += 1 }
            guard close < end, close > start, bytes[close] == UInt8(ascii: "\"") else { return nil }
            values.append(String(decoding: bytes[start..<close], as: UTF8.self))
            index = close + 1
        }
        return values
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }
}

extension Date {
    /// Seconds since 1970 as every backend stores dates (REAL, DOUBLE PRECISION). A date made
    /// with `Date(timeIntervalSince1970:)` comes back equal; tests inject such dates.
    package var unixSeconds: Double { timeIntervalSince1970 }

    package init(unixSeconds: Double) {
        self.init(timeIntervalSince1970: unixSeconds)
    }
}
