import Foundation
import GRDB
import SCACore
import SCAStorage

// A recovery sheet's counters are read and written back inside one write transaction, like a
// user's, and a recovery burns its PUK in the same transaction that binds the new device, so
// a PUK works once however many recoveries race for it.
extension SQLiteStore {
    package func replaceRecoverySheet(_ sheet: RecoverySheetRecord) async throws {
        try await write { db in
            guard try db.exists("SELECT 1 FROM users WHERE id = ?", arguments: [sheet.userID]) else { throw StoreError.notFound }
            try db.cachedStatement(sql: "DELETE FROM recovery_sheets WHERE user_id = ?").execute(arguments: [sheet.userID])
            do {
                try Self.insert(sheet, db)
            } catch let error as DatabaseError where error.isUniquenessViolation {
                throw StoreError.conflict("code")
            }
        }
    }

    package func recoverySheet(userID: String) async throws -> RecoverySheetRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM recovery_sheets WHERE user_id = ?")
                .fetchOne(RecoverySheetRecord.self, arguments: [userID])
        }
    }

    package func updateRecoveryLockout<Outcome: Sendable>(
        codeDigest: [UInt8], _ transition: @escaping @Sendable (inout LockoutState) -> Outcome
    ) async throws -> (sheet: RecoverySheetRecord, outcome: Outcome)? {
        try await write { db in
            guard var sheet = try Self.recoverySheet(db, codeDigest: codeDigest) else { return nil }
            let (outcome, changed) = sheet.lockout.applying(transition)
            if let changed {
                sheet.lockout = changed
                try Self.saveCounters(of: sheet, db)
            }
            return (sheet, outcome)
        }
    }

    package func completeRecovery(codeDigest: [UInt8], usedPUKs: Int, device: DeviceRecord, now: Date) async throws
        -> RecoveryCompletion
    {
        try await write { db in
            guard var sheet = try Self.recoverySheet(db, codeDigest: codeDigest), sheet.usedPUKs == usedPUKs,
                sheet.nextPUKDigest != nil
            else { return .pukUsed }
            sheet.usedPUKs += 1
            sheet.lockout.recordSuccess()
            try Self.saveCounters(of: sheet, db)
            try db.cachedStatement(sql: "UPDATE devices SET status = ? WHERE user_id = ? AND status <> ?").execute(
                arguments: [DeviceStatus.removed.rawValue, sheet.userID, DeviceStatus.removed.rawValue])
            let removed = db.changesCount
            var bound = device
            bound.userID = sheet.userID
            do {
                try Self.insert(bound, db)
            } catch let error as DatabaseError where error.isUniquenessViolation {
                // Thrown out of the transaction, which rolls back: the PUK stays unused.
                throw StoreError.conflict("id")
            }
            let ended = try Self.endSessions(userID: sheet.userID, now: now, db)
            return .recovered(device: bound, devicesRemoved: removed, sessionsEnded: ended)
        }
    }

    static func recoverySheet(_ db: Database, codeDigest: [UInt8]) throws -> RecoverySheetRecord? {
        try db.cachedStatement(sql: "SELECT * FROM recovery_sheets WHERE code_digest = ?")
            .fetchOne(RecoverySheetRecord.self, arguments: [Data(codeDigest)])
    }

    private static func insert(_ sheet: RecoverySheetRecord, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO recovery_sheets (
                    user_id, code_digest, puk_digests, used_puks, failed_attempts, temporary_blocks,
                    locked_until, permanently_locked, last_totp_step, created_at
                ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: [
                sheet.userID, Data(sheet.codeDigest), Data(sheet.packedPUKDigests), sheet.usedPUKs,
                sheet.lockout.failedAttempts, sheet.lockout.temporaryBlocks, sheet.lockout.lockedUntil?.unixSeconds,
                sheet.lockout.permanentlyLocked, sheet.lockout.lastTOTPStep, sheet.createdAt.unixSeconds,
            ])
    }

    static func saveCounters(of sheet: RecoverySheetRecord, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE recovery_sheets SET used_puks = ?, failed_attempts = ?, temporary_blocks = ?,
                    locked_until = ?, permanently_locked = ?
                WHERE user_id = ?
                """
        ).execute(
            arguments: [
                sheet.usedPUKs, sheet.lockout.failedAttempts, sheet.lockout.temporaryBlocks,
                sheet.lockout.lockedUntil?.unixSeconds, sheet.lockout.permanentlyLocked, sheet.userID,
            ])
    }
}
