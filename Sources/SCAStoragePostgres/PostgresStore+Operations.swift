import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// Decoupled operations (v3-operations): load, apply, store. Which move is allowed is
// decided by the pure `OperationRecord.finish`; the update here only compares versions.
extension PostgresStore {
    package func insertOperation(_ operation: OperationRecord) async throws {
        let transaction = try operation.transaction.map { try JSONColumn.text($0) }
        do {
            _ = try await rows(
                """
                INSERT INTO operations
                    (id, user_id, client_id, device_id, challenge_id, operation, transaction_json, binding_message,
                     status, reject_reason, created_at, expires_at, finished_at, sealed_token, sealed_notification,
                     version)
                VALUES (\(operation.id), \(operation.userID), \(operation.clientID), \(operation.deviceID),
                        \(operation.challengeID), \(operation.operation.rawValue), \(transaction),
                        \(operation.bindingMessage), \(operation.status.rawValue), \(operation.rejectReason?.rawValue),
                        \(operation.createdAt.unixSeconds), \(operation.expiresAt.unixSeconds),
                        \(operation.finishedAt?.unixSeconds), \(operation.sealedToken.map(bytea)),
                        \(operation.sealedNotification.map(bytea)), \(operation.version))
                """)
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("id")
        }
    }

    package func operation(id: String) async throws -> OperationRecord? {
        try await rows("SELECT * FROM operations WHERE id = \(id)").first.map(OperationRecord.init(row:))
    }

    package func pendingOperations(deviceID: String, now: Date) async throws -> [OperationRecord] {
        try await rows(
            """
            SELECT * FROM operations WHERE device_id = \(deviceID) AND status = 'pending' AND expires_at > \(now.unixSeconds)
            ORDER BY created_at, id
            """
        ).map(OperationRecord.init(row:))
    }

    package func updateOperation(_ operation: OperationRecord, expectedVersion: Int) async throws -> Bool {
        try await rows(try Self.operationUpdate(operation, expectedVersion: expectedVersion)).count == 1
    }

    /// The compare-and-set of `operation`; it returns one row when it won.
    static func operationUpdate(_ operation: OperationRecord, expectedVersion: Int) throws -> PostgresQuery {
        let transaction = try operation.transaction.map { try JSONColumn.text($0) }
        return """
            UPDATE operations SET
                user_id = \(operation.userID), client_id = \(operation.clientID), device_id = \(operation.deviceID),
                challenge_id = \(operation.challengeID), operation = \(operation.operation.rawValue),
                transaction_json = \(transaction), binding_message = \(operation.bindingMessage),
                status = \(operation.status.rawValue), reject_reason = \(operation.rejectReason?.rawValue),
                created_at = \(operation.createdAt.unixSeconds), expires_at = \(operation.expiresAt.unixSeconds),
                finished_at = \(operation.finishedAt?.unixSeconds), sealed_token = \(operation.sealedToken.map(bytea)),
                version = \(expectedVersion + 1)
            WHERE id = \(operation.id) AND version = \(expectedVersion)
            RETURNING id
            """
    }

    package func hasAuthorizationGrant(clientID: String, userID: String) async throws -> Bool {
        try await !rows(
            "SELECT 1 FROM authorization_grants WHERE client_id = \(clientID) AND user_id = \(userID) LIMIT 1"
        ).isEmpty
    }
}
