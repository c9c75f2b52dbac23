import Foundation
import SCAStorage
import GRDB

/// The `ColumnReader` over a GRDB row: the primitive reads of this store's column encodings.
/// GRDB's subscripts trap on a NULL or mistyped value; these throw instead, so a damaged row
/// fails its request, not the server.
struct Columns: ColumnReader {
    private let row: Row

    init(_ row: Row) {
        self.row = row
    }

    func isNull(_ column: String) throws -> Bool {
        guard row.hasColumn(column) else {
            throw SQLiteStoreError(column: column, reason: "is missing from the result")
        }
        return (row[column] as DatabaseValue).isNull
    }

    func string(_ column: String) throws -> String {
        try row.decode(String.self, forColumn: column)
    }

    func integer(_ column: String) throws -> Int64 {
        try row.decode(Int64.self, forColumn: column)
    }

    /// REAL, as dates are stored.
    func double(_ column: String) throws -> Double {
        try row.decode(Double.self, forColumn: column)
    }

    func bool(_ column: String) throws -> Bool {
        try row.decode(Bool.self, forColumn: column)
    }

    func bytes(_ column: String) throws -> [UInt8] {
        Array(try row.decode(Data.self, forColumn: column))
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
