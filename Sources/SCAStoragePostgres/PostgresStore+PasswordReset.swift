import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// A reset redeems its PUK (the sheet's row locked), replaces the password and ends the user's
// sessions in one transaction: a PUK redeemed twice, from any instance, resets once.
extension PostgresStore {
    package func resetPassword(_ reset: PasswordReset) async throws -> PasswordResetCompletion {
        try await transaction { [self] connection in
            let user = try await connection.rows(
                "SELECT 1 FROM users WHERE id = \(reset.userID) FOR NO KEY UPDATE", logger: logger)
            guard !user.isEmpty else { throw StoreError.notFound }
            if let redeemed = reset.redeemedPUK {
                guard var sheet = try await lockedRecoverySheet(connection, codeDigest: redeemed.codeDigest),
                    sheet.userID == reset.userID, sheet.usedPUKs == redeemed.usedPUKs, sheet.nextPUKDigest != nil
                else { return .pukUsed }
                sheet.usedPUKs += 1
                sheet.lockout.recordSuccess()
                try await saveCounters(of: sheet, connection)
            }
            _ = try await connection.rows(
                """
                UPDATE users SET password_hash = \(reset.passwordHash), restricted_until = \(reset.restrictedUntil?.unixSeconds)
                WHERE id = \(reset.userID)
                """,
                logger: logger)
            return .reset(sessionsEnded: try await endSessions(userID: reset.userID, now: reset.now, connection))
        }
    }

    package func liftRestriction(userID: String, restrictedUntil: Date) async throws -> Bool {
        try await !rows(
            """
            UPDATE users SET restricted_until = NULL
            WHERE id = \(userID) AND restricted_until = \(restrictedUntil.unixSeconds)
            RETURNING id
            """
        ).isEmpty
    }
}
