import Foundation

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

    package static func text<Value: RawRepresentable>(rawValues: [Value]) throws -> String where Value.RawValue == String {
        try text(rawValues.map(\.rawValue))
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
