import Foundation
import SCAStorage
import GRDB

/// The `ColumnReader` over a GRDB row: the primitive reads of this store's column encodings.
/// GRDB's subscripts trap on a NULL or mistyped value; these throw instead, so a damaged row
/// fails its request, not the server.
struct Columns: ColumnReader {
    private let row: Row
    /// Each column's index by name, made once per row: GRDB's lookup by name lowercases every
    /// column name on every read, which cost a record of twenty columns more than its reads.
    private let indexes: [String: Int]

    init(_ row: Row) {
        self.row = row
        var indexes: [String: Int] = [:]
        indexes.reserveCapacity(row.count)
        // The leftmost of equal names, as GRDB's lookup.
        for (index, name) in row.columnNames.enumerated() where indexes[name] == nil {
            indexes[name] = index
        }
        self.indexes = indexes
    }

    /// The index of `column`; a name in another case is found as GRDB finds it.
    private func index(_ column: String) throws -> Int {
        if let index = indexes[column] { return index }
        let lowercased = column.lowercased()
        guard let index = row.columnNames.firstIndex(where: { $0.lowercased() == lowercased }) else {
            throw SQLiteStoreError(column: column, reason: "is missing from the result")
        }
        return row.columnNames.distance(from: row.columnNames.startIndex, to: index)
    }

    func isNull(_ column: String) throws -> Bool {
        (row[try index(column)] as DatabaseValue).isNull
    }

    func string(_ column: String) throws -> String {
        try row.decode(String.self, atIndex: index(column))
    }

    func integer(_ column: String) throws -> Int64 {
        try row.decode(Int64.self, atIndex: index(column))
    }

    /// REAL, as dates are stored.
    func double(_ column: String) throws -> Double {
        try row.decode(Double.self, atIndex: index(column))
    }

    func bool(_ column: String) throws -> Bool {
        try row.decode(Bool.self, atIndex: index(column))
    }

    func bytes(_ column: String) throws -> [UInt8] {
        Array(try row.decode(Data.self, atIndex: index(column)))
    }

    func damaged(_ column: String, reason: String) -> any Error {
        SQLiteStoreError(column: column, reason: reason)
    }
}

extension ColumnDecodable {
    /// The record in a row of this store.
    init(row: Row) throws {
        try self.init(columns: Columns(row))
    }
}

extension Database {
    /// Whether the query returns at least one row.
    func exists(_ sql: String, arguments: StatementArguments) throws -> Bool {
        try Row.fetchOne(cachedStatement(sql: sql), arguments: arguments) != nil
    }
}

extension DatabaseError {
    /// A PRIMARY KEY or UNIQUE constraint refused the row.
    var isUniquenessViolation: Bool {
        extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY || extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
    }
}
