import Foundation
import GRDB
import GRDBSQLite
import SCAStorage

/// The `ColumnReader` over the current row of a prepared statement: each read goes straight
/// to SQLite by column index, with no `Row` in between. A GRDB `Row` fetched from a statement
/// lowercases and indexes every column name and copies every value before the first read,
/// which cost a twenty-column record more than its own reads on every request.
///
/// The reads keep GRDB's conversions (an integer reads as a double, a real as a rounded
/// integer, a blob as text when it is UTF-8, text as bytes) but never trap: a NULL, a mistyped
/// value or a missing column throws `SQLiteStoreError`, so a damaged row fails its request,
/// not the server.
///
/// Valid only while the statement stays on the row it was made for (inside the read closure of
/// ``GRDB/Statement/fetchOne(arguments:_:)``).
struct StatementColumns: ColumnReader {
    private let sqliteStatement: SQLiteStatement
    private let lookup: StatementColumnLookup

    init(sqliteStatement: SQLiteStatement, lookup: StatementColumnLookup) {
        self.sqliteStatement = sqliteStatement
        self.lookup = lookup
    }

    /// The index of `column`: the leftmost column of that name, found without regard to case
    /// as GRDB finds it, through the statement's layout (read once per prepared statement).
    private func index(_ column: String) throws -> CInt {
        guard let index = lookup.index(of: column) else {
            throw SQLiteStoreError(column: column, reason: "is missing from the result")
        }
        return CInt(index)
    }

    /// The column's storage class, with its index.
    private func type(_ column: String) throws -> (index: CInt, type: CInt) {
        let index = try index(column)
        return (index, sqlite3_column_type(sqliteStatement, index))
    }

    private func mistyped(_ column: String, _ type: CInt, expected: String) -> SQLiteStoreError {
        let found =
            switch type {
            case SQLITE_NULL: "NULL"
            case SQLITE_INTEGER: "an INTEGER"
            case SQLITE_FLOAT: "a REAL"
            case SQLITE_TEXT: "TEXT"
            default: "a BLOB"
            }
        return SQLiteStoreError(column: column, reason: "holds \(found), not \(expected)")
    }

    func isNull(_ column: String) throws -> Bool {
        try type(column).type == SQLITE_NULL
    }

    func string(_ column: String) throws -> String {
        let (index, type) = try type(column)
        switch type {
        case SQLITE_TEXT:
            // Text first, then its length, as SQLite documents.
            guard let text = sqlite3_column_text(sqliteStatement, index) else { return "" }
            let count = Int(sqlite3_column_bytes(sqliteStatement, index))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        case SQLITE_BLOB:
            guard let string = String(validating: blobBytes(index), as: UTF8.self) else {
                throw SQLiteStoreError(column: column, reason: "holds a BLOB that is not UTF-8 text")
            }
            return string
        default:
            throw mistyped(column, type, expected: "text")
        }
    }

    func integer(_ column: String) throws -> Int64 {
        let (index, type) = try type(column)
        switch type {
        case SQLITE_INTEGER:
            return sqlite3_column_int64(sqliteStatement, index)
        case SQLITE_FLOAT:
            // Rounded toward zero inside Int64's range, as GRDB converts a REAL.
            let double = sqlite3_column_double(sqliteStatement, index)
            guard double >= Double(Int64.min), double < Double(Int64.max) else {
                throw SQLiteStoreError(column: column, reason: "holds \(double), which does not fit an integer")
            }
            return Int64(double)
        default:
            throw mistyped(column, type, expected: "an integer")
        }
    }

    /// REAL, as dates are stored; an INTEGER reads as its value.
    func double(_ column: String) throws -> Double {
        let (index, type) = try type(column)
        switch type {
        case SQLITE_FLOAT: return sqlite3_column_double(sqliteStatement, index)
        case SQLITE_INTEGER: return Double(sqlite3_column_int64(sqliteStatement, index))
        default: throw mistyped(column, type, expected: "a number")
        }
    }

    func bool(_ column: String) throws -> Bool {
        let (index, type) = try type(column)
        switch type {
        case SQLITE_INTEGER: return sqlite3_column_int64(sqliteStatement, index) != 0
        case SQLITE_FLOAT: return sqlite3_column_double(sqliteStatement, index) != 0
        default: throw mistyped(column, type, expected: "a boolean")
        }
    }

    func bytes(_ column: String) throws -> [UInt8] {
        let (index, type) = try type(column)
        switch type {
        case SQLITE_BLOB:
            return Array(blobBytes(index))
        case SQLITE_TEXT:
            // Text reads as its UTF-8 bytes, as SQLite and GRDB convert it.
            return Array(try string(column).utf8)
        default:
            throw mistyped(column, type, expected: "bytes")
        }
    }

    /// The bytes of a BLOB, valid until the statement moves; an empty BLOB has no pointer.
    private func blobBytes(_ index: CInt) -> UnsafeBufferPointer<UInt8> {
        guard let bytes = sqlite3_column_blob(sqliteStatement, index) else { return UnsafeBufferPointer(start: nil, count: 0) }
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        return UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: UInt8.self), count: count)
    }

    func damaged(_ column: String, reason: String) -> any Error {
        SQLiteStoreError(column: column, reason: reason)
    }
}
