import GRDB
import GRDBSQLite
import Synchronization

/// The column names of a prepared statement's result, read from SQLite once per statement and
/// kept while the statement lives, so that a read by name costs a few string comparisons
/// instead of lowercasing and hashing the name (GRDB's `index(ofColumn:)` cost a record of
/// twenty columns ~30K instructions per read of it).
///
/// A name is found as GRDB finds it: without regard to case, the leftmost of equal names.
final class StatementColumnLayout: Sendable {
    /// The names as SQLite reports them, left to right.
    private let names: [String]
    /// The same, lowercased, for a name asked in another case.
    private let lowercasedNames: [String]
    /// No two names are equal without regard to case (always so for `SELECT *` from one
    /// table): the first exact match, wherever the search starts, is then the leftmost.
    private let distinct: Bool
    /// SQLite's count of automatic re-preparations of the statement when the layout was read:
    /// a schema changed by another connection makes SQLite prepare the statement again, maybe
    /// with other columns, under the same `Statement`.
    fileprivate let preparation: CInt

    private init(_ sqliteStatement: SQLiteStatement) {
        preparation = Self.preparation(of: sqliteStatement)
        names = (0..<sqlite3_column_count(sqliteStatement)).map { index in
            sqlite3_column_name(sqliteStatement, index).map { String(cString: $0) } ?? ""
        }
        lowercasedNames = names.map { $0.lowercased() }
        distinct = Set(lowercasedNames).count == lowercasedNames.count
    }

    fileprivate static func preparation(of sqliteStatement: SQLiteStatement) -> CInt {
        sqlite3_stmt_status(sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
    }

    /// The index of `column`, searching from `hint` on (and round to the start).
    func index(of column: String, hint: Int) -> Int? {
        if distinct {
            let count = names.count
            var index = hint < count ? hint : 0
            for _ in 0..<count {
                if names[index] == column { return index }
                index += 1
                if index == count { index = 0 }
            }
        }
        let lowercased = column.lowercased()
        return lowercasedNames.firstIndex(of: lowercased)
    }

    /// The layout of `statement` as SQLite reports it now.
    static func of(_ statement: Statement) -> StatementColumnLayout {
        let key = ObjectIdentifier(statement)
        let sqliteStatement = statement.sqliteStatement
        let preparation = preparation(of: sqliteStatement)
        // The identity is checked outside the lock: the weak reference is the runtime's to
        // load safely from any thread, and the statement never enters the shared cache.
        if let entry = cache.withLock({ $0[key] }), entry.statement.value === statement, entry.layout.preparation == preparation {
            return entry.layout
        }
        let entry = LayoutEntry(statement: WeakStatement(statement), layout: StatementColumnLayout(sqliteStatement))
        cache.withLock { $0.store(entry, for: key) }
        return entry.layout
    }

    /// Layouts by statement, shared by every connection of the process.
    private static let cache = Mutex(LayoutCache())
}

/// A statement held weakly, so that an entry never keeps a statement alive and a new statement
/// at a dropped one's address is not taken for it.
///
/// `@unchecked Sendable` is safe because `value` is set once, in `init`, and afterwards only
/// loaded (the runtime loads a weak reference atomically, from any thread) and compared by
/// identity: the statement, which is not Sendable, is never used through it.
private final class WeakStatement: @unchecked Sendable {
    /// Only compared by identity, never used to reach the statement (which is not Sendable).
    weak var value: Statement?

    init(_ value: Statement) {
        self.value = value
    }
}

private struct LayoutEntry: Sendable {
    var statement: WeakStatement
    var layout: StatementColumnLayout
}

/// The layouts of the live statements. GRDB drops its cached statements when the schema
/// changes; their entries are swept once the cache has grown.
private struct LayoutCache: ~Copyable {
    private var entries: [ObjectIdentifier: LayoutEntry] = [:]
    /// The size past which entries of dropped statements are swept on the next store.
    private var sweepAt = 256

    subscript(key: ObjectIdentifier) -> LayoutEntry? { entries[key] }

    mutating func store(_ entry: LayoutEntry, for key: ObjectIdentifier) {
        if entries.count >= sweepAt {
            entries = entries.filter { $0.value.statement.value != nil }
            sweepAt = max(256, entries.count * 2)
        }
        entries[key] = entry
    }
}
