import Foundation
import SCAStorage
import PostgresNIO

/// The `ColumnReader` over a PostgresNIO row: the primitive reads of this store's column
/// encodings, by column name. PostgresNIO's name subscript traps on a missing column and its
/// decoder throws on a NULL or mistyped value; these always throw, so a damaged row fails its
/// request, not the server.
struct Columns: ColumnReader {
    private let row: PostgresRandomAccessRow
    /// For one part of a joined row (``parts(of:)``): the part's columns by name. Nil: the
    /// whole row.
    private let index: [String: Int]?

    init(_ row: PostgresRow) {
        self.row = row.makeRandomAccess()
        index = nil
    }

    private init(_ row: PostgresRandomAccessRow, columns: Range<Int>) {
        self.row = row
        var index: [String: Int] = [:]
        for position in columns where index[row[position].columnName] == nil {
            index[row[position].columnName] = position
        }
        self.index = index
    }

    /// The column that separates the tables of a joined row (`SELECT a.*, NULL AS sca_part,
    /// b.* …`), whose columns share names: one statement reads several records.
    static let partSeparator = "sca_part"

    /// The parts of a joined row, cut at ``partSeparator``, each read by its own column names.
    static func parts(of row: PostgresRow) -> [Columns] {
        let row = row.makeRandomAccess()
        var parts: [Columns] = []
        var start = 0
        for position in 0..<row.count where row[position].columnName == partSeparator {
            parts.append(Columns(row, columns: start..<position))
            start = position + 1
        }
        parts.append(Columns(row, columns: start..<row.count))
        return parts
    }

    private func cell(_ column: String) throws -> PostgresCell {
        if let index {
            guard let position = index[column] else {
                throw PostgresStoreError(column: column, reason: "is missing from the result")
            }
            return row[position]
        }
        guard row.contains(column) else {
            throw PostgresStoreError(column: column, reason: "is missing from the result")
        }
        return row[column]
    }

    func isNull(_ column: String) throws -> Bool {
        try cell(column).bytes == nil
    }

    func string(_ column: String) throws -> String {
        try cell(column).decode(String.self)
    }

    /// SMALLINT, INTEGER or BIGINT.
    func integer(_ column: String) throws -> Int64 {
        try cell(column).decode(Int64.self)
    }

    /// DOUBLE PRECISION, as dates are stored.
    func double(_ column: String) throws -> Double {
        try cell(column).decode(Double.self)
    }

    func bool(_ column: String) throws -> Bool {
        try cell(column).decode(Bool.self)
    }

    func bytes(_ column: String) throws -> [UInt8] {
        Array(try cell(column).decode(ByteBuffer.self).readableBytesView)
    }

    func damaged(_ column: String, reason: String) -> any Error {
        PostgresStoreError(column: column, reason: reason)
    }
}

extension ColumnDecodable {
    /// The record in a row of this store.
    init(row: PostgresRow) throws {
        try self.init(columns: Columns(row))
    }

    /// The record in one part of a joined row, nil when the outer join found none (its `id`
    /// is NULL).
    init?(part columns: Columns) throws {
        if try columns.isNull("id") { return nil }
        try self.init(columns: columns)
    }
}

/// A `BYTEA` parameter. `[UInt8]` itself would be sent as an array of `char`.
func bytea(_ bytes: [UInt8]) -> ByteBuffer {
    ByteBuffer(bytes: bytes)
}
