import Foundation

/// One stored row, read by column name. Each backend implements the few primitive reads over
/// its own row type; every record is then decoded once, in `SCAStorage`, from these reads, so
/// the column encodings (dates as unix seconds, enums by raw value, lists as JSON) are written
/// in one place whatever the database.
///
/// Every read throws instead of trapping on a missing, NULL or mistyped value, so a damaged row
/// fails its request, not the server.
package protocol ColumnReader {
    /// Whether the column holds NULL.
    func isNull(_ column: String) throws -> Bool
    func string(_ column: String) throws -> String
    /// An integer column of any width.
    func integer(_ column: String) throws -> Int64
    func double(_ column: String) throws -> Double
    func bool(_ column: String) throws -> Bool
    func bytes(_ column: String) throws -> [UInt8]
    /// The backend's error for a column whose value cannot be turned back into a record.
    func damaged(_ column: String, reason: String) -> any Error
}

extension ColumnReader {
    /// A plain value (text, integer, real, boolean, or an optional of one).
    package func value<Value: ColumnValue>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        try Value.read(column, from: self)
    }

    /// A date stored as unix seconds (REAL, DOUBLE PRECISION).
    package func date(_ column: String) throws -> Date {
        Date(unixSeconds: try double(column))
    }

    package func optionalDate(_ column: String) throws -> Date? {
        try isNull(column) ? nil : date(column)
    }

    package func optionalBytes(_ column: String) throws -> [UInt8]? {
        try isNull(column) ? nil : bytes(column)
    }

    /// SHA-256 hashes stored one after the other in one binary column (an empty value for none).
    package func hashes(_ column: String) throws -> [[UInt8]] {
        let bytes = try self.bytes(column)
        guard bytes.count % 32 == 0 else { throw damaged(column, reason: "holds \(bytes.count) bytes, not whole 32-byte hashes") }
        return stride(from: 0, to: bytes.count, by: 32).map { Array(bytes[$0..<$0 + 32]) }
    }

    /// An enum stored by its raw value.
    package func rawValue<Value: RawRepresentable>(_ column: String, as type: Value.Type = Value.self) throws -> Value
    where Value.RawValue == String {
        let raw = try string(column)
        guard let value = Value(rawValue: raw) else {
            throw damaged(column, reason: "holds '\(raw)', which is not a \(Value.self)")
        }
        return value
    }

    package func optionalRawValue<Value: RawRepresentable>(
        _ column: String, as type: Value.Type = Value.self
    ) throws -> Value? where Value.RawValue == String {
        try isNull(column) ? nil : rawValue(column, as: type)
    }

    /// A list of enum raw values stored as a JSON array of strings.
    package func rawValues<Value: RawRepresentable>(_ column: String, as type: Value.Type = Value.self) throws -> [Value]
    where Value.RawValue == String {
        try stringList(column).map { raw in
            guard let value = Value(rawValue: raw) else {
                throw damaged(column, reason: "lists '\(raw)', which is not a \(Value.self)")
            }
            return value
        }
    }

    /// A list of strings stored as a JSON array.
    package func stringList(_ column: String) throws -> [String] {
        if let identifiers = JSONColumn.identifiers(in: try string(column)) { return identifiers }
        return try json(column, as: [String].self)
    }

    /// A value stored as JSON text.
    package func json<Value: Decodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        let text = try string(column)
        do {
            return try columnJSONDecoder.decode(Value.self, from: Data(text.utf8))
        } catch {
            throw damaged(column, reason: "holds JSON that is not a \(Value.self): \(error)")
        }
    }

    package func optionalJSON<Value: Decodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value? {
        try isNull(column) ? nil : json(column, as: type)
    }
}

/// Made once: rows carry several JSON columns. Its settings never change.
private let columnJSONDecoder = JSONDecoder()
