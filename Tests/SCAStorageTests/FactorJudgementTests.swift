import Foundation
import SCACore
import SCAStorage
import Testing

/// What a proof's one-time factor is, judged on what was read: the store then only
/// applies the use a right one carries.
@Suite("One-time factor judgements (pure)")
struct FactorJudgementTests {
    static let t0 = Date(timeIntervalSince1970: 1_750_000_000)

    func code(_ hash: [UInt8], used: Bool = false) -> OneTimeCodeRecord {
        OneTimeCodeRecord(
            challengeID: "c1", method: .smsOTP, codeHash: hash, sentAt: Self.t0, expiresAt: Self.t0 + 300, sendCount: 1, used: used)
    }

    @Test("a delivered code: right while unused and unexpired, a replay once used (expired or not), wrong otherwise")
    func deliveredCodes() {
        let t0 = Self.t0
        #expect(
            FactorJudgement.deliveredCode([1, 2], against: code([1, 2]), now: t0 + 10)
                == .right(use: .deliveredCode(challengeID: "c1", method: .smsOTP, codeHash: [1, 2], now: t0 + 10)))
        #expect(FactorJudgement.deliveredCode([1, 3], against: code([1, 2]), now: t0 + 10) == .wrong)
        #expect(FactorJudgement.deliveredCode([1], against: code([1, 2]), now: t0 + 10) == .wrong, "a prefix is not the code")
        #expect(FactorJudgement.deliveredCode([1, 2], against: nil, now: t0 + 10) == .wrong, "none was sent")
        #expect(FactorJudgement.deliveredCode([1, 2], against: code([1, 2]), now: t0 + 300) == .wrong, "expired")
        #expect(FactorJudgement.deliveredCode([1, 2], against: code([1, 2], used: true), now: t0 + 10) == .replayed)
        #expect(FactorJudgement.deliveredCode([1, 2], against: code([1, 2], used: true), now: t0 + 900) == .replayed)
        #expect(FactorJudgement.deliveredCode([1, 3], against: code([1, 2], used: true), now: t0 + 10) == .wrong)
    }

    @Test("a TOTP step: right only when newer than the last accepted, a replay otherwise")
    func totpSteps() {
        #expect(FactorJudgement.totpStep(7, userID: "u1", lastAccepted: nil) == .right(use: .totpStep(userID: "u1", step: 7)))
        #expect(FactorJudgement.totpStep(8, userID: "u1", lastAccepted: 7) == .right(use: .totpStep(userID: "u1", step: 8)))
        #expect(FactorJudgement.totpStep(7, userID: "u1", lastAccepted: 7) == .replayed)
        #expect(FactorJudgement.totpStep(6, userID: "u1", lastAccepted: 7) == .replayed, "an older step is burnt with the newer")
    }
}
