import Foundation
import GRDB
import SCACore
import SCAStorage

extension SQLiteStore {
    /// - Throws: `StoreError.conflict("id")` when a challenge with this id exists.
    package func insertChallenge(_ challenge: ChallengeRecord) async throws {
        let columns = try ChallengeColumns.arguments(challenge)
        try await write { db in try Self.insertChallenge(challenge, columns: columns, db) }
    }

    /// The challenge, a payment's decision, an exempted challenge's session and the entries
    /// (the risk decision's, `challenge.created`) in one write transaction.
    package func insertChallenge(
        _ challenge: ChallengeRecord, auditing entries: [AuditEntryDraft], admitting admission: RiskAdmission?,
        opening: SessionOpening?
    ) async throws -> [AuditEntry] {
        // Encoded before entering the write transaction, so the writer is held no longer than needed.
        let columns = try ChallengeColumns.arguments(challenge)
        return try await write { db in
            try Self.insertChallenge(challenge, columns: columns, db)
            if let admission { try Self.admit(admission, db) }
            if let opening { try Self.createSession(opening.session, refreshToken: opening.refreshToken, db) }
            return try entries.map { try Self.appendAuditEntry($0, db) }
        }
    }

    /// The user and the device a new challenge names, in one read transaction.
    package func challengeContext(user lookup: UserLookup?, deviceID: String?) async throws -> ChallengeContext {
        try await read { db in
            let user: UserRecord? = try lookup.flatMap { lookup in
                let (sql, key): (String, String) =
                    switch lookup {
                    case .id(let id): ("SELECT * FROM users WHERE id = ?", id)
                    case .email(let email): ("SELECT * FROM users WHERE email = ?", email.lowercased())
                    case .loginPhone(let phone): ("SELECT * FROM users WHERE login_phone = ?", phone)
                    }
                return try db.cachedStatement(sql: sql).fetchOne(UserRecord.self, arguments: [key])
            }
            let device = try deviceID.flatMap { try Self.device(db, id: $0) }
            return ChallengeContext(user: user, device: device)
        }
    }

    private static func insertChallenge(_ challenge: ChallengeRecord, columns: StatementArguments, _ db: Database) throws {
        do {
            try db.cachedStatement(
                sql: """
                    INSERT INTO challenges (
                        id, user_id, operation, verdict, required_categories, methods, nonce,
                        transaction_json, transaction_digest, device_id, state, accepted_methods,
                        rejected_methods, failed_attempts, created_at, expires_at, completed_at,
                        decoy_json, pending_method, exemption, extra_categories, used_signature_hashes, version,
                        delegation_json
                    ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            // Array literals, not `StatementArguments([String])`: that initializer maps through a
            // key path made at run time, about 8 000 instructions a call. The delegation is
            // written here only: it never changes, so no update carries it.
            ).execute(
                arguments: [challenge.id] + columns + [challenge.version, try challenge.delegation.map { try JSONColumn.text($0) }])
        } catch let error as DatabaseError where error.isUniquenessViolation {
            throw StoreError.conflict("id")
        }
    }

    package func challenge(id: String) async throws -> ChallengeRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM challenges WHERE id = ?").fetchOne(ChallengeRecord.self, arguments: [id])
        }
    }

    /// Writes every field but the id, with version `expectedVersion + 1`, in one conditional
    /// UPDATE: of several updates made from the same version, exactly one lands.
    package func updateChallenge(_ challenge: ChallengeRecord, expectedVersion: Int) async throws -> Bool {
        let columns = try ChallengeColumns.arguments(challenge)
        return try await write { db in
            try Self.updateChallenge(id: challenge.id, columns: columns, expectedVersion: expectedVersion, db)
        }
    }

    /// The compare-and-set of ``updateChallenge(_:expectedVersion:)`` inside a caller's write
    /// transaction (a proof's, ``commitProof(_:)``).
    static func updateChallenge(id: String, columns: StatementArguments, expectedVersion: Int, _ db: Database) throws -> Bool {
        try db.cachedStatement(
            sql: """
                UPDATE challenges SET
                    user_id = ?, operation = ?, verdict = ?, required_categories = ?, methods = ?,
                    nonce = ?, transaction_json = ?, transaction_digest = ?, device_id = ?, state = ?,
                    accepted_methods = ?, rejected_methods = ?, failed_attempts = ?, created_at = ?, expires_at = ?,
                    completed_at = ?, decoy_json = ?, pending_method = ?, exemption = ?, extra_categories = ?,
                    used_signature_hashes = ?, version = ?
                WHERE id = ? AND version = ?
                """).execute(
            arguments: columns + [expectedVersion + 1, id, expectedVersion]
        )
        return db.changesCount == 1
    }
}

/// The column values of a challenge other than its id and version, in schema order. They are
/// encoded before entering the write transaction so that the writer is held no longer than needed.
enum ChallengeColumns {
    static func arguments(_ challenge: ChallengeRecord) throws -> StatementArguments {
        [
            challenge.userID,
            challenge.operation.rawValue,
            challenge.verdict.rawValue,
            challenge.requiredCategories,
            try JSONColumn.text(rawValues: challenge.methods),
            challenge.nonce,
            try challenge.transaction.map { try JSONColumn.text($0) },
            challenge.transactionDigest,
            challenge.deviceID,
            challenge.state.rawValue,
            try JSONColumn.text(rawValues: challenge.acceptedMethods),
            try JSONColumn.text(rawValues: challenge.rejectedMethods),
            challenge.failedAttempts,
            challenge.createdAt.unixSeconds,
            challenge.expiresAt.unixSeconds,
            challenge.completedAt?.unixSeconds,
            try challenge.decoy.map { try JSONColumn.text($0) },
            challenge.pendingMethod?.rawValue,
            challenge.exemption?.rawValue,
            try JSONColumn.text(rawValues: challenge.extraCategories),
            Data(try challenge.usedSignatureColumn()),
        ]
    }
}
