import Foundation
import SCAStorage
import GRDB

// Throwing readers for the column encodings of this store. GRDB's subscripts trap on a NULL
// or mistyped value; these throw instead, so a damaged row fails its request, not the server.
extension Row {
    func value<Value: DatabaseValueConvertible>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        try decode(type, forColumn: column)
    }

    /// A date stored as REAL unix seconds.
    func date(_ column: String) throws -> Date {
        Date(unixSeconds: try decode(Double.self, forColumn: column))
    }

    func optionalDate(_ column: String) throws -> Date? {
        try decode(Double?.self, forColumn: column).map(Date.init(unixSeconds:))
    }

    func bytes(_ column: String) throws -> [UInt8] {
        Array(try decode(Data.self, forColumn: column))
    }

    func optionalBytes(_ column: String) throws -> [UInt8]? {
        try decode(Data?.self, forColumn: column).map { Array($0) }
    }

    func bool(_ column: String) throws -> Bool {
        try decode(Bool.self, forColumn: column)
    }

    /// An enum stored by its raw value.
    func rawValue<Value: RawRepresentable>(_ column: String, as type: Value.Type = Value.self) throws -> Value
    where Value.RawValue == String {
        let raw = try decode(String.self, forColumn: column)
        guard let value = Value(rawValue: raw) else {
            throw SQLiteStoreError(column: column, reason: "holds '\(raw)', which is not a \(Value.self)")
        }
        return value
    }

    func optionalRawValue<Value: RawRepresentable>(_ column: String, as type: Value.Type = Value.self) throws -> Value?
    where Value.RawValue == String {
        guard try decode(String?.self, forColumn: column) != nil else { return nil }
        return try rawValue(column, as: type)
    }

    /// A list of enum raw values stored as a JSON array of strings.
    func rawValues<Value: RawRepresentable>(_ column: String, as type: Value.Type = Value.self) throws -> [Value]
    where Value.RawValue == String {
        try json(column, as: [String].self).map { raw in
            guard let value = Value(rawValue: raw) else {
                throw SQLiteStoreError(column: column, reason: "lists '\(raw)', which is not a \(Value.self)")
            }
            return value
        }
    }

    /// A value stored as JSON text.
    func json<Value: Decodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        let text = try decode(String.self, forColumn: column)
        do {
            return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        } catch {
            throw SQLiteStoreError(column: column, reason: "holds JSON that is not a \(Value.self): \(error)")
        }
    }

    func optionalJSON<Value: Decodable>(_ column: String, as type: Value.Type = Value.self) throws -> Value? {
        guard try decode(String?.self, forColumn: column) != nil else { return nil }
        return try json(column, as: type)
    }
}

extension Database {
    /// Whether the query returns at least one row.
    func exists(_ sql: String, arguments: StatementArguments) throws -> Bool {
        try Row.fetchOne(self, sql: sql, arguments: arguments) != nil
    }
}

extension DatabaseError {
    /// A PRIMARY KEY or UNIQUE constraint refused the row.
    var isUniquenessViolation: Bool {
        extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY || extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
    }
}
