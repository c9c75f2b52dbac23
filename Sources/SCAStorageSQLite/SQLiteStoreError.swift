/// A stored value that cannot be turned back into a record: the file was changed outside
/// this store, or is damaged. Reported instead of crashing, so one bad row fails one request.
package struct SQLiteStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The column holding the bad value.
    package var column: String
    /// What is wrong with it.
    package var reason: String

    package init(column: String, reason: String) {
        self.column = column
        self.reason = reason
    }

    package var description: String {
        "SQLite store: column '\(column)' \(reason)"
    }
}
