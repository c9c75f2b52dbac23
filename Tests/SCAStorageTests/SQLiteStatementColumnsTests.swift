import Foundation
import GRDB
import GRDBSQLite
import SCACore
import SCAStorage
@testable import SCAStorageSQLite
import Testing

/// The SQLite store reads every record straight from its prepared statement: these
/// are the promises of that reader, which the conformance suite relies on without naming.
@Suite("SQLite statement columns")
struct SQLiteStatementColumnsTests {
    /// What `read` makes of the first row of `sql`, on a fresh database in memory.
    private func first<Value>(_ sql: String, _ read: @escaping (StatementColumns) throws -> Value) throws -> Value? {
        try DatabaseQueue().read { db in try db.makeStatement(sql: sql).fetchOne(read) }
    }

    @Test("NULL in a column read as a plain value throws, naming the column; as an optional it is nil")
    func nullThrows() throws {
        #expect(throws: SQLiteStoreError(column: "name", reason: "holds NULL, not text")) {
            try first("SELECT NULL AS name") { try $0.string("name") }
        }
        #expect(throws: SQLiteStoreError(column: "n", reason: "holds NULL, not an integer")) {
            try first("SELECT NULL AS n") { try $0.value("n", as: Int.self) }
        }
        #expect(throws: SQLiteStoreError(column: "at", reason: "holds NULL, not a number")) {
            try first("SELECT NULL AS at") { try $0.date("at") }
        }
        #expect(throws: SQLiteStoreError(column: "b", reason: "holds NULL, not bytes")) {
            try first("SELECT NULL AS b") { try $0.bytes("b") }
        }
        #expect(try first("SELECT NULL AS name") { try $0.value("name", as: String?.self) } == .some(nil))
        #expect(try first("SELECT NULL AS at") { try $0.optionalDate("at") } == .some(nil))
        #expect(try first("SELECT NULL AS b") { try $0.optionalBytes("b") } == .some(nil))
    }

    @Test("a value of the wrong type throws, naming the column and what it holds")
    func mistypedThrows() throws {
        #expect(throws: SQLiteStoreError(column: "n", reason: "holds TEXT, not an integer")) {
            try first("SELECT 'many' AS n") { try $0.integer("n") }
        }
        #expect(throws: SQLiteStoreError(column: "at", reason: "holds TEXT, not a number")) {
            try first("SELECT 'yesterday' AS at") { try $0.date("at") }
        }
        #expect(throws: SQLiteStoreError(column: "flag", reason: "holds a BLOB, not a boolean")) {
            try first("SELECT X'01' AS flag") { try $0.bool("flag") }
        }
        #expect(throws: SQLiteStoreError(column: "s", reason: "holds an INTEGER, not text")) {
            try first("SELECT 7 AS s") { try $0.string("s") }
        }
        #expect(throws: SQLiteStoreError(column: "b", reason: "holds a REAL, not bytes")) {
            try first("SELECT 1.5 AS b") { try $0.bytes("b") }
        }
        #expect(throws: SQLiteStoreError(column: "s", reason: "holds a BLOB that is not UTF-8 text")) {
            try first("SELECT X'FF00' AS s") { try $0.string("s") }
        }
        #expect(throws: SQLiteStoreError(column: "n", reason: "holds 1e+300, which does not fit an integer")) {
            try first("SELECT 1e300 AS n") { try $0.integer("n") }
        }
    }

    @Test("GRDB's conversions hold: an integer reads as a number, a real as an integer toward zero, UTF-8 bytes as text, text as bytes")
    func conversions() throws {
        #expect(try first("SELECT 3 AS d") { try $0.double("d") } == 3)
        #expect(try first("SELECT -2.9 AS n") { try $0.integer("n") } == -2)
        #expect(try first("SELECT 0.0 AS f, 2 AS t") { (try $0.bool("f"), try $0.bool("t")) }.map { [$0.0, $0.1] } == [false, true])
        #expect(try first("SELECT X'68C3A9' AS s") { try $0.string("s") } == "hé")
        #expect(try first("SELECT 'hé' AS b") { try $0.bytes("b") } == Array("hé".utf8))
    }

    @Test("a column missing from the result throws, naming it")
    func missingColumnThrows() throws {
        #expect(throws: SQLiteStoreError(column: "nope", reason: "is missing from the result")) {
            try first("SELECT 1 AS id") { try $0.isNull("nope") }
        }
    }

    @Test("a name in another case is found, and of equal names the leftmost wins")
    func lookupAsGRDB() throws {
        #expect(try first("SELECT 1 AS Mixed_Case") { [try $0.integer("mixed_case"), try $0.integer("MIXED_CASE")] } == [1, 1])
        #expect(try first("SELECT 1 AS a, 2 AS a, 3 AS A, 4 AS b") { [try $0.integer("a"), try $0.integer("A"), try $0.integer("b")] } == [1, 1, 4])
        // A name outside ASCII is compared as GRDB compares it.
        #expect(try first("SELECT 5 AS \"Événement\"") { try $0.integer("événement") } == 5)
    }

    @Test("blobs, empty blobs, text and dates round-trip through a table")
    func roundTrips() throws {
        let at = Date(unixSeconds: 1_700_000_000.25)
        let rows = try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, bytes BLOB, text TEXT, at REAL, whole REAL)")
            try db.execute(
                sql: "INSERT INTO t VALUES (1, ?, ?, ?, ?), (2, ?, NULL, ?, NULL)",
                arguments: [Data([0, 1, 255]), "äb", at.unixSeconds, 1_700_000_000, Data(), at.unixSeconds])
            return try db.cachedStatement(sql: "SELECT * FROM t ORDER BY id").fetchAll { columns in
                (bytes: try columns.bytes("bytes"), text: try columns.value("text", as: String?.self),
                 at: try columns.date("at"), whole: try columns.optionalDate("whole"))
            }
        }
        #expect(rows.count == 2)
        #expect(rows.map(\.bytes) == [[0, 1, 255], []])
        #expect(rows.map(\.text) == ["äb", nil])
        #expect(rows.map(\.at) == [at, at])
        #expect(rows.map(\.whole) == [Date(unixSeconds: 1_700_000_000), nil])
    }

    @Test("after a schema change, a cached SELECT * reads the new columns at their new places")
    func schemaChange() throws {
        try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE t (id TEXT, x INTEGER); INSERT INTO t VALUES ('a', 1)")
            let sql = "SELECT * FROM t WHERE id = ?"
            #expect(try db.cachedStatement(sql: sql).fetchOne(arguments: ["a"]) { try $0.integer("x") } == 1)
            try db.execute(sql: "ALTER TABLE t ADD COLUMN y TEXT; UPDATE t SET y = 'new'")
            #expect(try db.cachedStatement(sql: sql).fetchOne(arguments: ["a"]) { [try $0.string("y"), try $0.string("id")] } == ["new", "a"])
            // The same names in another order: every read follows its column.
            try db.execute(sql: "DROP TABLE t; CREATE TABLE t (y TEXT, x INTEGER, id TEXT); INSERT INTO t VALUES ('why', 2, 'a')")
            #expect(
                try db.cachedStatement(sql: sql).fetchOne(arguments: ["a"]) { "\(try $0.string("id")) \(try $0.integer("x")) \(try $0.string("y"))" }
                    == "a 2 why")
        }
    }

    /// Another connection changes the schema: this connection keeps its cached statement, and
    /// SQLite prepares it again under the new schema. The reads must follow SQLite's columns,
    /// not indexes remembered from before.
    @Test("a schema changed by another connection is read by the columns SQLite reports now")
    func schemaChangedElsewhere() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("t.sqlite").path
            let reader = try DatabaseQueue(path: path)
            let other = try DatabaseQueue(path: path)
            try await other.write { db in try db.execute(sql: "CREATE TABLE t (id TEXT, x TEXT, y TEXT); INSERT INTO t VALUES ('a', 'ex', 'why')") }
            let sql = "SELECT * FROM t WHERE id = ?"
            let read = { @Sendable (db: Database) throws -> (statement: ObjectIdentifier, values: [String]?) in
                let statement = try db.cachedStatement(sql: sql)
                return (ObjectIdentifier(statement), try statement.fetchOne(arguments: ["a"]) { [try $0.string("x"), try $0.string("y")] })
            }
            let before = try await reader.read(read)
            #expect(before.values == ["ex", "why"])
            try await other.write { db in
                try db.execute(sql: "DROP TABLE t; CREATE TABLE t (y TEXT, id TEXT, x TEXT); INSERT INTO t VALUES ('why', 'a', 'ex')")
            }
            let after = try await reader.read(read)
            #expect(after.statement == before.statement, "the same cached statement, prepared again by SQLite")
            #expect(after.values == ["ex", "why"])
        }
    }

    @Test("a fetch leaves its cached statement reset, so no read stays open after it")
    func statementIsReset() throws {
        try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3)")
            let statement = try db.cachedStatement(sql: "SELECT n FROM t ORDER BY n")
            #expect(try statement.fetchOne { try $0.integer("n") } == 1)
            #expect(sqlite3_stmt_busy(statement.sqliteStatement) == 0)
            #expect(try statement.fetchAll { try $0.integer("n") } == [1, 2, 3])
            #expect(try statement.fetchOne { try $0.integer("n") } == 1, "a second fetch starts from the first row")
            // A read that throws half-way also leaves the statement reset.
            #expect(throws: SQLiteStoreError.self) { try statement.fetchAll { try $0.string("n") } }
            #expect(sqlite3_stmt_busy(statement.sqliteStatement) == 0)
        }
    }

    @Test("arguments that do not fit the statement throw")
    func wrongArguments() throws {
        #expect(throws: DatabaseError.self) {
            try DatabaseQueue().read { db in try db.makeStatement(sql: "SELECT ? AS a").fetchOne(arguments: [1, 2]) { try $0.integer("a") } }
        }
    }

    @Test("a damaged row read through the store throws SQLiteStoreError naming its column")
    func damagedRowThroughTheStore() async throws {
        let store = try SQLiteStore.inMemory()
        try await store.createUser(UserRecord(id: "u1", email: "alice@example.com", roles: ["user"], createdAt: StoreConformance.t0))
        #expect(try await store.user(id: "u1")?.email == "alice@example.com")
        try await store.writer.write { db in try db.execute(sql: "UPDATE users SET failed_attempts = 'many'") }
        await #expect(throws: SQLiteStoreError(column: "failed_attempts", reason: "holds TEXT, not an integer")) {
            try await store.user(id: "u1")
        }
        try await store.writer.write { db in try db.execute(sql: "UPDATE users SET failed_attempts = 0, created_at = 'yesterday'") }
        await #expect(throws: SQLiteStoreError(column: "created_at", reason: "holds TEXT, not a number")) {
            try await store.challengeContext(user: .email("alice@example.com"), deviceID: nil)
        }
    }
}
