import Foundation
import PostgresNIO
import SCACore
import SCAStorage

extension PostgresStore {
    /// - Throws: `StoreError.conflict("id")` when a challenge with this id exists.
    package func insertChallenge(_ challenge: ChallengeRecord) async throws {
        let columns = try ChallengeColumns(challenge)
        do {
            try await leased { [self] connection in try await insertChallenge(challenge, columns: columns, connection) }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("id")
        }
    }

    /// The challenge and its entries (the risk decision's, `challenge.created`) in one
    /// statement, so one round trip and its own transaction: the insert is a data-modifying
    /// `WITH` of the audit append, and a duplicate id fails both. The audit advisory lock is
    /// held only while the statement runs, not across round trips. A payment SCA is asked for
    /// is one more `WITH` part of it; one let through without SCA moves its counters and the
    /// running aggregates first, and an exempted challenge's session is created first, in one
    /// transaction with that statement.
    package func insertChallenge(
        _ challenge: ChallengeRecord, auditing entries: [AuditEntryDraft], admitting admission: RiskAdmission?,
        opening: SessionOpening?
    ) async throws -> [AuditEntry] {
        let columns = try ChallengeColumns(challenge)
        var insert = Self.insertQuery(challenge, columns: columns)
        insert.sql = "WITH inserted AS (" + insert.sql + ")"
        // A payment SCA is asked for changes nothing but its own row: it rides in the statement.
        let asksForSCA = admission.map { $0.stateChange == nil && $0.payment.authorisedAt == nil } ?? false
        let admittedBefore = asksForSCA ? nil : admission
        if asksForSCA, let admission {
            insert.sql += ", paid AS ("
            Self.appendRiskPaymentInsert(admission.payment, to: &insert)
            insert.sql += ")"
        }
        let parts = entries.map(AuditEntry.canonicalParts)
        let query = try Self.appendQuery(entries, parts: parts, prefix: insert)
        do {
            let rows: [PostgresRow]
            if admittedBefore != nil || opening != nil {
                rows = try await transaction { [self] connection in
                    if let admittedBefore {
                        if let change = admittedBefore.stateChange { try await changeRiskState(change, connection) }
                        try await insertRiskPayment(admittedBefore.payment, connection)
                    }
                    if let opening { try await createSession(opening.session, refreshToken: opening.refreshToken, connection) }
                    return try await connection.rows(query, logger: logger)
                }
            } else {
                rows = try await leased { [self] connection in try await connection.rows(query, logger: logger) }
            }
            return try Self.entries(entries, parts: parts, linkedBy: rows)
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("id")
        }
    }

    /// The user and the device a new challenge names in one statement: two outer
    /// joins on a single row, so one round trip and one snapshot.
    package func challengeContext(user lookup: UserLookup?, deviceID: String?) async throws -> ChallengeContext {
        var query = PostgresQuery(unsafeSQL: "SELECT u.*, NULL AS \(Columns.partSeparator), d.* FROM (SELECT 1) AS one LEFT JOIN users u ON ")
        switch lookup {
        case .id(let id)?:
            query.binds.append(id)
            query.sql += "u.id = $\(query.binds.count)"
        case .email(let email)?:
            query.binds.append(email.lowercased())
            query.sql += "u.email = $\(query.binds.count)"
        case .loginPhone(let phone)?:
            query.binds.append(phone)
            query.sql += "u.login_phone = $\(query.binds.count)"
        case nil:
            query.sql += "FALSE"
        }
        query.sql += " LEFT JOIN devices d ON "
        if let deviceID {
            query.binds.append(deviceID)
            query.sql += "d.id = $\(query.binds.count)"
        } else {
            query.sql += "FALSE"
        }
        guard let row = try await rows(query).first else { return ChallengeContext(user: nil, device: nil) }
        let parts = Columns.parts(of: row)
        guard parts.count == 2 else { throw PostgresStoreError(reason: "the challenge context has \(parts.count) parts") }
        return ChallengeContext(user: try UserRecord(part: parts[0]), device: try DeviceRecord(part: parts[1]))
    }

    private func insertChallenge(_ challenge: ChallengeRecord, columns: ChallengeColumns, _ connection: PostgresConnection) async throws {
        _ = try await connection.rows(Self.insertQuery(challenge, columns: columns), logger: logger)
    }

    private static func insertQuery(_ challenge: ChallengeRecord, columns: ChallengeColumns) -> PostgresQuery {
        """
        INSERT INTO challenges (
            id, user_id, operation, verdict, required_categories, methods, nonce,
            transaction_json, transaction_digest, device_id, state, accepted_methods,
            rejected_methods, failed_attempts, created_at, expires_at, completed_at,
            decoy_json, pending_method, exemption, extra_categories, used_signature_hashes, version, delegation_json
        ) VALUES (
            \(challenge.id), \(challenge.userID), \(columns.operation), \(columns.verdict),
            \(challenge.requiredCategories), \(columns.methods), \(challenge.nonce), \(columns.transaction),
            \(challenge.transactionDigest), \(challenge.deviceID), \(columns.state), \(columns.acceptedMethods),
            \(columns.rejectedMethods), \(challenge.failedAttempts), \(challenge.createdAt.unixSeconds),
            \(challenge.expiresAt.unixSeconds), \(challenge.completedAt?.unixSeconds), \(columns.decoy),
            \(challenge.pendingMethod?.rawValue), \(challenge.exemption?.rawValue), \(columns.extraCategories),
            \(bytea(columns.usedSignatures)), \(challenge.version), \(columns.delegation)
        )
        """
    }

    package func challenge(id: String) async throws -> ChallengeRecord? {
        try await rows("SELECT * FROM challenges WHERE id = \(id)").first.map(ChallengeRecord.init(row:))
    }

    /// Writes every field but the id, with version `expectedVersion + 1`, in one conditional
    /// UPDATE. An UPDATE that waited for a concurrent one re-reads the row and checks the
    /// version again, so of several updates made from the same version exactly one lands,
    /// whichever instances they come from.
    package func updateChallenge(_ challenge: ChallengeRecord, expectedVersion: Int) async throws -> Bool {
        let columns = try ChallengeColumns(challenge)
        return try await leased { [self] connection in
            try await updateChallenge(challenge, columns: columns, expectedVersion: expectedVersion, connection)
        }
    }

    /// The compare-and-set of ``updateChallenge(_:expectedVersion:)`` on a caller's connection
    /// (inside a proof's transaction, ``commitProof(_:)``).
    func updateChallenge(
        _ challenge: ChallengeRecord, columns: ChallengeColumns, expectedVersion: Int, _ connection: PostgresConnection
    ) async throws -> Bool {
        let updated = try await connection.rows(
            """
            UPDATE challenges SET
                user_id = \(challenge.userID), operation = \(columns.operation), verdict = \(columns.verdict),
                required_categories = \(challenge.requiredCategories), methods = \(columns.methods),
                nonce = \(challenge.nonce), transaction_json = \(columns.transaction),
                transaction_digest = \(challenge.transactionDigest), device_id = \(challenge.deviceID),
                state = \(columns.state), accepted_methods = \(columns.acceptedMethods),
                rejected_methods = \(columns.rejectedMethods), failed_attempts = \(challenge.failedAttempts),
                created_at = \(challenge.createdAt.unixSeconds), expires_at = \(challenge.expiresAt.unixSeconds),
                completed_at = \(challenge.completedAt?.unixSeconds), decoy_json = \(columns.decoy),
                pending_method = \(challenge.pendingMethod?.rawValue), exemption = \(challenge.exemption?.rawValue),
                extra_categories = \(columns.extraCategories), used_signature_hashes = \(bytea(columns.usedSignatures)),
                version = \(expectedVersion + 1)
            WHERE id = \(challenge.id) AND version = \(expectedVersion)
            RETURNING id
            """,
            logger: logger)
        return updated.count == 1
    }
}

/// The encoded column values of a challenge that are not stored as they are.
struct ChallengeColumns {
    var operation: String
    var verdict: String
    var methods: String
    var transaction: String?
    var state: String
    var acceptedMethods: String
    var rejectedMethods: String
    var decoy: String?
    var extraCategories: String
    var usedSignatures: [UInt8]
    /// Written by the insert only: a challenge's delegation never changes.
    var delegation: String?

    init(_ challenge: ChallengeRecord) throws {
        operation = challenge.operation.rawValue
        verdict = challenge.verdict.rawValue
        methods = try JSONColumn.text(rawValues: challenge.methods)
        transaction = try challenge.transaction.map { try JSONColumn.text($0) }
        state = challenge.state.rawValue
        acceptedMethods = try JSONColumn.text(rawValues: challenge.acceptedMethods)
        rejectedMethods = try JSONColumn.text(rawValues: challenge.rejectedMethods)
        decoy = try challenge.decoy.map { try JSONColumn.text($0) }
        extraCategories = try JSONColumn.text(rawValues: challenge.extraCategories)
        usedSignatures = try challenge.usedSignatureColumn()
        delegation = try challenge.delegation.map { try JSONColumn.text($0) }
    }
}
