import GRDB
import GRDBSQLite
import SCAStorage

/// A cursor over a prepared statement that hands each step to a reader as
/// ``StatementColumns`` and yields what it reads: records come straight from SQLite, with no
/// `Row` made or copied per step.
///
/// Like GRDB's own cursors it resets the statement when made and when released, so a cached
/// statement is never left holding its read open; and like them it is valid only inside the
/// database access that made it.
final class StatementRecordCursor<Element>: DatabaseCursor {
    let _statement: Statement
    var _isDone = false
    private let read: (StatementColumns) throws -> Element
    /// Made at the first step: SQLite prepares a statement again, with the columns of a changed
    /// schema, inside that step.
    private var lookup: StatementColumnLookup?

    init(statement: Statement, arguments: StatementArguments, read: @escaping (StatementColumns) throws -> Element) throws {
        self._statement = statement
        self.read = read
        // Validates the arguments, resets the statement and binds them.
        try statement.setArguments(arguments)
    }

    deinit {
        // The reset result repeats the error of a failed step, already thrown by `next()`.
        sqlite3_reset(_statement.sqliteStatement)
    }

    func _element(sqliteStatement: SQLiteStatement) throws -> Element {
        let lookup = lookup ?? StatementColumnLookup(layout: .of(_statement))
        self.lookup = lookup
        return try read(StatementColumns(sqliteStatement: sqliteStatement, lookup: lookup))
    }
}

@available(*, unavailable)
extension StatementRecordCursor: Sendable {}

extension Statement {
    /// What `read` makes of the first row, or nil when there is none.
    func fetchOne<Element>(arguments: StatementArguments = [], _ read: @escaping (StatementColumns) throws -> Element) throws
        -> Element?
    {
        try StatementRecordCursor(statement: self, arguments: arguments, read: read).next()
    }

    /// What `read` makes of every row, in order.
    func fetchAll<Element>(arguments: StatementArguments = [], _ read: @escaping (StatementColumns) throws -> Element) throws
        -> [Element]
    {
        try Array(StatementRecordCursor(statement: self, arguments: arguments, read: read))
    }

    /// The record in the first row, or nil when there is none.
    func fetchOne<Record: ColumnDecodable>(_ type: Record.Type, arguments: StatementArguments = []) throws -> Record? {
        try fetchOne(arguments: arguments) { try Record(columns: $0) }
    }

    /// The record in every row, in order.
    func fetchAll<Record: ColumnDecodable>(_ type: Record.Type, arguments: StatementArguments = []) throws -> [Record] {
        try fetchAll(arguments: arguments) { try Record(columns: $0) }
    }
}
