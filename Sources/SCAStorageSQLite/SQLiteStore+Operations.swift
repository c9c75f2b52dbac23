import Foundation
import GRDB
import SCACore
import SCAStorage

// Decoupled operations (v3-operations): load, apply, store. Which move is allowed is
// decided by the pure `OperationRecord.finish`; the update here only compares versions.
extension SQLiteStore {
    package func insertOperation(_ operation: OperationRecord) async throws {
        let transaction = try operation.transaction.map { try JSONColumn.text($0) }
        try await write { db in
            do {
                try db.execute(
                    sql: """
                        INSERT INTO operations
                            (id, user_id, client_id, device_id, challenge_id, operation, transaction_json, binding_message,
                             status, reject_reason, created_at, expires_at, finished_at, sealed_token, sealed_notification,
                             version)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        operation.id, operation.userID, operation.clientID, operation.deviceID, operation.challengeID,
                        operation.operation.rawValue, transaction, operation.bindingMessage, operation.status.rawValue,
                        operation.rejectReason?.rawValue, operation.createdAt.unixSeconds, operation.expiresAt.unixSeconds,
                        operation.finishedAt?.unixSeconds, operation.sealedToken.map { Data($0) },
                        operation.sealedNotification.map { Data($0) }, operation.version,
                    ])
            } catch let error as DatabaseError where error.isUniquenessViolation {
                throw StoreError.conflict("id")
            }
        }
    }

    package func operation(id: String) async throws -> OperationRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM operations WHERE id = ?").fetchOne(OperationRecord.self, arguments: [id])
        }
    }

    package func pendingOperations(deviceID: String, now: Date) async throws -> [OperationRecord] {
        try await read { db in
            try db.cachedStatement(sql: """
                SELECT * FROM operations WHERE device_id = ? AND status = 'pending' AND expires_at > ?
                ORDER BY created_at, id
                """
            ).fetchAll(OperationRecord.self, arguments: [deviceID, now.unixSeconds])
        }
    }

    package func updateOperation(_ operation: OperationRecord, expectedVersion: Int) async throws -> Bool {
        try await updateOperation(operation, expectedVersion: expectedVersion, enqueueing: [])
    }

    /// The compare-and-set of `operation`, inside the caller's transaction.
    static func storeOperation(_ operation: OperationRecord, expectedVersion: Int, in db: Database) throws -> Bool {
        let transaction = try operation.transaction.map { try JSONColumn.text($0) }
        try db.execute(
            sql: """
                UPDATE operations SET
                    user_id = ?, client_id = ?, device_id = ?, challenge_id = ?, operation = ?, transaction_json = ?,
                    binding_message = ?, status = ?, reject_reason = ?, created_at = ?, expires_at = ?,
                    finished_at = ?, sealed_token = ?, version = ?
                WHERE id = ? AND version = ?
                """,
            arguments: [
                operation.userID, operation.clientID, operation.deviceID, operation.challengeID,
                operation.operation.rawValue, transaction, operation.bindingMessage, operation.status.rawValue,
                operation.rejectReason?.rawValue, operation.createdAt.unixSeconds, operation.expiresAt.unixSeconds,
                operation.finishedAt?.unixSeconds, operation.sealedToken.map { Data($0) }, expectedVersion + 1,
                operation.id, expectedVersion,
            ])
        return db.changesCount == 1
    }

    package func hasAuthorizationGrant(clientID: String, userID: String) async throws -> Bool {
        try await read { db in
            try db.exists(
                "SELECT 1 FROM authorization_grants WHERE client_id = ? AND user_id = ? LIMIT 1", arguments: [clientID, userID])
        }
    }
}
