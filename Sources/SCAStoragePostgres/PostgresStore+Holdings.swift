import Foundation
import PostgresNIO
import SCAStorage

extension PostgresStore {
    /// One transaction, so the four reads see one moment.
    package func holdings(userID: String) async throws -> UserHoldings {
        let logger = self.logger
        return try await transaction { connection in
            UserHoldings(
                sessions: try await connection.rows(
                    "SELECT * FROM sessions WHERE user_id = \(userID) ORDER BY created_at, id", logger: logger
                ).map(SessionRecord.init(row:)),
                authorizationGrants: try await connection.rows(
                    "SELECT * FROM authorization_grants WHERE user_id = \(userID) ORDER BY auth_time, code_hash", logger: logger
                ).map(AuthorizationGrantRecord.init(row:)),
                consents: try await connection.rows(
                    "SELECT * FROM consents WHERE user_id = \(userID) ORDER BY created_at, id", logger: logger
                ).map(ConsentRecord.init(row:)),
                operations: try await connection.rows(
                    "SELECT * FROM operations WHERE user_id = \(userID) ORDER BY created_at, id", logger: logger
                ).map(OperationRecord.init(row:)))
        }
    }
}
