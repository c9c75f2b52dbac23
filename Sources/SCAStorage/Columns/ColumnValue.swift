/// A plain value a `ColumnReader` reads by type, so that record decoders say `value("id")` and
/// let the field's type pick the read.
package protocol ColumnValue {
    static func read(_ column: String, from columns: some ColumnReader) throws -> Self
}

extension String: ColumnValue {
    package static func read(_ column: String, from columns: some ColumnReader) throws -> String {
        try columns.string(column)
    }
}

extension Int64: ColumnValue {
    package static func read(_ column: String, from columns: some ColumnReader) throws -> Int64 {
        try columns.integer(column)
    }
}

extension Int: ColumnValue {
    package static func read(_ column: String, from columns: some ColumnReader) throws -> Int {
        let wide = try columns.integer(column)
        guard let value = Int(exactly: wide) else {
            throw columns.damaged(column, reason: "holds \(wide), which does not fit an Int")
        }
        return value
    }
}

extension Double: ColumnValue {
    package static func read(_ column: String, from columns: some ColumnReader) throws -> Double {
        try columns.double(column)
    }
}

extension Bool: ColumnValue {
    package static func read(_ column: String, from columns: some ColumnReader) throws -> Bool {
        try columns.bool(column)
    }
}

/// NULL reads as nil.
extension Optional: ColumnValue where Wrapped: ColumnValue {
    package static func read(_ column: String, from columns: some ColumnReader) throws -> Wrapped? {
        try columns.isNull(column) ? nil : Wrapped.read(column, from: columns)
    }
}
