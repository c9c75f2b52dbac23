import SCACore
import Testing

@Suite("Problem")
struct ProblemTests {
    @Test("problems are equal by code: wording and the hints of one occurrence do not count")
    func equalityByCode() {
        let locked = Problem(status: 423, code: .userLocked, title: "User locked", detail: "Try later.", retryAfter: 900)
        let lockedLater = Problem(status: 423, code: .userLocked, title: "Locked", retryAfter: 30)
        let expired = Problem(status: 409, code: .challengeExpired, title: "User locked", detail: "Try later.")

        #expect(locked == lockedLater)
        #expect(locked != expired)
        // The hints stay readable where a caller needs them.
        #expect(lockedLater.retryAfter == 30)
    }
}
