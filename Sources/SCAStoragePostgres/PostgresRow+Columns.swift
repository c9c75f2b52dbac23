import Foundation
import SCAStorage
import PostgresNIO

/// Throwing readers for the column encodings of this store, by column name. PostgresNIO's
/// name subscript traps on a missing column and its decoder throws on a NULL or mistyped
/// value; these always throw, so a damaged row fails its request, not the server.
struct Columns {
    private let row: PostgresRandomAccessRow

    init(_ row: PostgresRow) {
        self.row = row.makeRandomAccess()
    }

    func value<Value: PostgresDecodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        guard row.contains(column) else {
            throw PostgresStoreError(column: column, reason: "is missing from the result")
        }
        return try row[column].decode(Value.self)
    }

    /// A date stored as DOUBLE PRECISION unix seconds.
    func date(_ column: String) throws -> Date {
        Date(unixSeconds: try value(column, as: Double.self))
    }

    func optionalDate(_ column: String) throws -> Date? {
        try value(column, as: Double?.self).map(Date.init(unixSeconds:))
    }

    func bytes(_ column: String) throws -> [UInt8] {
        Array(try value(column, as: ByteBuffer.self).readableBytesView)
    }

    func optionalBytes(_ column: String) throws -> [UInt8]? {
        try value(column, as: ByteBuffer?.self).map { Array($0.readableBytesView) }
    }

    /// An enum stored by its raw value.
    func rawValue<Value: RawRepresentable>(_ column: String, as type: Value.Type = Value.self) throws -> Value
    where Value.RawValue == String {
        let raw = try value(column, as: String.self)
        guard let value = Value(rawValue: raw) else {
            throw PostgresStoreError(column: column, reason: "holds '\(raw)', which is not a \(Value.self)")
        }
        return value
    }

    func optionalRawValue<Value: RawRepresentable>(_ column: String, as type: Value.Type = Value.self) throws -> Value?
    where Value.RawValue == String {
        guard try value(column, as: String?.self) != nil else { return nil }
        return try rawValue(column, as: type)
    }

    /// A list of enum raw values stored as a JSON array of strings.
    func rawValues<Value: RawRepresentable>(_ column: String, as type: Value.Type = Value.self) throws -> [Value]
    where Value.RawValue == String {
        try json(column, as: [String].self).map { raw in
            guard let value = Value(rawValue: raw) else {
                throw PostgresStoreError(column: column, reason: "lists '\(raw)', which is not a \(Value.self)")
            }
            return value
        }
    }

    /// A value stored as JSON text.
    func json<Value: Decodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        let text = try value(column, as: String.self)
        do {
            return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        } catch {
            throw PostgresStoreError(column: column, reason: "holds JSON that is not a \(Value.self): \(error)")
        }
    }

    func optionalJSON<Value: Decodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value? {
        guard try value(column, as: String?.self) != nil else { return nil }
        return try json(column, as: type)
    }
}

/// A `BYTEA` parameter. `[UInt8]` itself would be sent as an array of `char`.
func bytea(_ bytes: [UInt8]) -> ByteBuffer {
    ByteBuffer(bytes: bytes)
}

