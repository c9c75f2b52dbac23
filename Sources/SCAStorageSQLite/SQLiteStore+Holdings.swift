import Foundation
import GRDB
import SCAStorage

extension SQLiteStore {
    package func holdings(userID: String) async throws -> UserHoldings {
        try await read { db in
            UserHoldings(
                sessions: try db.cachedStatement(sql: "SELECT * FROM sessions WHERE user_id = ? ORDER BY created_at, id")
                    .fetchAll(SessionRecord.self, arguments: [userID]),
                authorizationGrants: try db.cachedStatement(
                    sql: "SELECT * FROM authorization_grants WHERE user_id = ? ORDER BY auth_time, code_hash"
                ).fetchAll(AuthorizationGrantRecord.self, arguments: [userID]),
                consents: try db.cachedStatement(sql: "SELECT * FROM consents WHERE user_id = ? ORDER BY created_at, id")
                    .fetchAll(ConsentRecord.self, arguments: [userID]),
                operations: try db.cachedStatement(sql: "SELECT * FROM operations WHERE user_id = ? ORDER BY created_at, id")
                    .fetchAll(OperationRecord.self, arguments: [userID]))
        }
    }
}
