import Foundation
import GRDB
import SCACore
import SCAStorage

// A reset redeems its PUK, replaces the password and ends the user's sessions in one write
// transaction: a PUK redeemed twice, on any connection, resets once.
extension SQLiteStore {
    package func resetPassword(_ reset: PasswordReset) async throws -> PasswordResetCompletion {
        try await write { db in
            guard try db.exists("SELECT 1 FROM users WHERE id = ?", arguments: [reset.userID]) else { throw StoreError.notFound }
            if let redeemed = reset.redeemedPUK {
                guard var sheet = try Self.recoverySheet(db, codeDigest: redeemed.codeDigest),
                    sheet.userID == reset.userID, sheet.usedPUKs == redeemed.usedPUKs, sheet.nextPUKDigest != nil
                else { return .pukUsed }
                sheet.usedPUKs += 1
                sheet.lockout.recordSuccess()
                try Self.saveCounters(of: sheet, db)
            }
            try db.cachedStatement(sql: "UPDATE users SET password_hash = ?, restricted_until = ? WHERE id = ?")
                .execute(arguments: [reset.passwordHash, reset.restrictedUntil?.unixSeconds, reset.userID])
            return .reset(sessionsEnded: try Self.endSessions(userID: reset.userID, now: reset.now, db))
        }
    }

    package func liftRestriction(userID: String, restrictedUntil: Date) async throws -> Bool {
        try await write { db in
            try db.cachedStatement(sql: "UPDATE users SET restricted_until = NULL WHERE id = ? AND restricted_until = ?")
                .execute(arguments: [userID, restrictedUntil.unixSeconds])
            return db.changesCount == 1
        }
    }
}
