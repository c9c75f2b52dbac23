import Foundation
import SCAStorage
import PostgresNIO

/// The `ColumnReader` over a PostgresNIO row: the primitive reads of this store's column
/// encodings, by column name. PostgresNIO's name subscript traps on a missing column and its
/// decoder throws on a NULL or mistyped value; these always throw, so a damaged row fails its
/// request, not the server.
struct Columns: ColumnReader {
    private let row: PostgresRandomAccessRow

    init(_ row: PostgresRow) {
        self.row = row.makeRandomAccess()
    }

    private func cell(_ column: String) throws -> PostgresCell {
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
}

/// A `BYTEA` parameter. `[UInt8]` itself would be sent as an array of `char`.
func bytea(_ bytes: [UInt8]) -> ByteBuffer {
    ByteBuffer(bytes: bytes)
}
