import Foundation
import SCACore

/// What checking one presented factor found: the one judgement of the proof path, for every
/// method. A right one-time factor carries what it uses up when its proof commits
/// (``FactorUse``); it is judged purely on what was read, and the read may be overtaken before
/// the commit: the commit's compare-and-set catches that (``ProofCommitResult/factorUsed``).
package enum FactorJudgement: Sendable, Equatable {
    /// Right; a one-time factor (a delivered code, a TOTP step) commits with `use`, nil for a
    /// factor nothing uses up (a password, a passkey).
    case right(use: FactorUse?)
    /// Wrong, expired, or nothing to match: a guess, counted.
    case wrong
    /// A right factor used before: not a guess, refused all the same (once is once).
    case replayed

    /// A delivered code against the challenge's stored code for its method. A code matching a
    /// used one is a replay whether or not it has expired since (as ``SCAStore/consumeCode``
    /// answers `.alreadyUsed`); an unused one must still be valid at `now`.
    package static func deliveredCode(_ codeHash: [UInt8], against stored: OneTimeCodeRecord?, now: Date) -> FactorJudgement {
        guard let stored, Self.equal(stored.codeHash, codeHash) else { return .wrong }
        if stored.used { return .replayed }
        guard now < stored.expiresAt else { return .wrong }
        return .right(use: .deliveredCode(challengeID: stored.challengeID, method: stored.method, codeHash: codeHash, now: now))
    }

    /// A TOTP code's matching time step against the last step the user had accepted: a step
    /// not newer is a code seen before (a replay, or the loser of a race with the same code).
    package static func totpStep(_ step: Int64, userID: String, lastAccepted: Int64?) -> FactorJudgement {
        if let lastAccepted, step <= lastAccepted { return .replayed }
        return .right(use: .totpStep(userID: userID, step: step))
    }

    /// Compares two keyed hashes without stopping at the first difference.
    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
