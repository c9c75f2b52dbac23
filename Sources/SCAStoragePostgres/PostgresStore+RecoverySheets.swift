import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// A recovery sheet's row is locked while its counters are read and written back, and a
// recovery burns its PUK in the same transaction that binds the new device, so a PUK works
// once however many instances race for it.
extension PostgresStore {
    package func replaceRecoverySheet(_ sheet: RecoverySheetRecord) async throws {
        do {
            try await transaction { [self] connection in
                guard try await !connection.rows(
                    "SELECT 1 FROM users WHERE id = \(sheet.userID) FOR NO KEY UPDATE", logger: logger
                ).isEmpty else { throw StoreError.notFound }
                _ = try await connection.rows("DELETE FROM recovery_sheets WHERE user_id = \(sheet.userID)", logger: logger)
                _ = try await connection.rows(
                    """
                    INSERT INTO recovery_sheets (
                        user_id, code_digest, puk_digests, used_puks, failed_attempts, temporary_blocks,
                        locked_until, permanently_locked, last_totp_step, created_at
                    ) VALUES (
                        \(sheet.userID), \(bytea(sheet.codeDigest)), \(bytea(sheet.packedPUKDigests)), \(sheet.usedPUKs),
                        \(sheet.lockout.failedAttempts), \(sheet.lockout.temporaryBlocks), \(sheet.lockout.lockedUntil?.unixSeconds),
                        \(sheet.lockout.permanentlyLocked), \(sheet.lockout.lastTOTPStep), \(sheet.createdAt.unixSeconds)
                    )
                    """,
                    logger: logger)
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("code")
        }
    }

    package func recoverySheet(userID: String) async throws -> RecoverySheetRecord? {
        try await rows("SELECT * FROM recovery_sheets WHERE user_id = \(userID)").first.map(RecoverySheetRecord.init(row:))
    }

    package func updateRecoveryLockout<Outcome: Sendable>(
        codeDigest: [UInt8], _ transition: @escaping @Sendable (inout LockoutState) -> Outcome
    ) async throws -> (sheet: RecoverySheetRecord, outcome: Outcome)? {
        try await transaction { [self] connection in
            guard var sheet = try await lockedRecoverySheet(connection, codeDigest: codeDigest) else { return nil }
            let (outcome, changed) = sheet.lockout.applying(transition)
            if let changed {
                sheet.lockout = changed
                try await saveCounters(of: sheet, connection)
            }
            return (sheet, outcome)
        }
    }

    package func completeRecovery(codeDigest: [UInt8], usedPUKs: Int, device: DeviceRecord, now: Date) async throws
        -> RecoveryCompletion
    {
        do {
            return try await transaction { [self] connection in
                guard var sheet = try await lockedRecoverySheet(connection, codeDigest: codeDigest),
                    sheet.usedPUKs == usedPUKs, sheet.nextPUKDigest != nil
                else { return .pukUsed }
                sheet.usedPUKs += 1
                sheet.lockout.recordSuccess()
                try await saveCounters(of: sheet, connection)
                // As a device registration does: serialises changes to this user's devices.
                _ = try await connection.rows(
                    "SELECT 1 FROM users WHERE id = \(sheet.userID) FOR NO KEY UPDATE", logger: logger)
                let removed = try await connection.rows(
                    """
                    UPDATE devices SET status = \(DeviceStatus.removed.rawValue)
                    WHERE user_id = \(sheet.userID) AND status <> \(DeviceStatus.removed.rawValue)
                    RETURNING id
                    """,
                    logger: logger
                ).count
                var bound = device
                bound.userID = sheet.userID
                try await insert(bound, connection)
                let ended = try await endSessions(userID: sheet.userID, now: now, connection)
                return .recovered(device: bound, devicesRemoved: removed, sessionsEnded: ended)
            }
        } catch let error as PSQLError where error.isUniqueViolation {
            // Thrown out of the transaction, which rolled back: the PUK stays unused.
            throw StoreError.conflict("id")
        }
    }

    /// The sheet with this code, its row locked until the transaction ends.
    func lockedRecoverySheet(_ connection: PostgresConnection, codeDigest: [UInt8]) async throws
        -> RecoverySheetRecord?
    {
        try await connection.rows(
            "SELECT * FROM recovery_sheets WHERE code_digest = \(bytea(codeDigest)) FOR UPDATE", logger: logger
        ).first.map(RecoverySheetRecord.init(row:))
    }

    func saveCounters(of sheet: RecoverySheetRecord, _ connection: PostgresConnection) async throws {
        _ = try await connection.rows(
            """
            UPDATE recovery_sheets SET used_puks = \(sheet.usedPUKs), failed_attempts = \(sheet.lockout.failedAttempts),
                temporary_blocks = \(sheet.lockout.temporaryBlocks), locked_until = \(sheet.lockout.lockedUntil?.unixSeconds),
                permanently_locked = \(sheet.lockout.permanentlyLocked)
            WHERE user_id = \(sheet.userID)
            """,
            logger: logger)
    }
}
