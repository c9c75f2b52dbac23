import GRDB

extension Database {
    /// Whether the query returns at least one row (read through a cached statement, no row made).
    func exists(_ sql: String, arguments: StatementArguments) throws -> Bool {
        try cachedStatement(sql: sql).fetchOne(arguments: arguments) { _ in () } != nil
    }
}

extension DatabaseError {
    /// A PRIMARY KEY or UNIQUE constraint refused the row.
    var isUniquenessViolation: Bool {
        extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY || extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
    }
}
