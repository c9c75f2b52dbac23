import Foundation
import SCACore

/// One client's users for manual logins, taken in turn.
///
/// The server burns a TOTP step once it has accepted it, with every older step, so a user can
/// log in with a fresh code once per 30-second step. A client that logs in faster than that
/// needs several users: it takes the one that waited longest, and when every user has already
/// used the current step it must wait for the next one (counted in ``waits``, never in a latency).
struct UserPool: Sendable {
    private var users: [BenchUser]
    /// Per user, the last step it logged in with.
    private var lastSteps: [Int64]
    private var cursor = 0
    /// How often the pool ran dry and the client waited for the next step.
    private(set) var waits = 0

    init(users: [BenchUser]) {
        precondition(!users.isEmpty, "a pool needs at least one user")
        self.users = users
        self.lastSteps = Array(repeating: Int64.min, count: users.count)
    }

    var count: Int { users.count }

    /// The next user with the code it types now: the step is reserved for this login. Waits for
    /// the next step when the whole pool has used the current one.
    /// - Parameter deadline: when the run stops starting flows; nil for no limit.
    /// - Returns: nil when the next step starts after `deadline`: the client is done.
    mutating func take(before deadline: ContinuousClock.Instant?) async throws -> (user: BenchUser, code: String)? {
        while true {
            let now = Date()
            // Users are taken round-robin, so the one at the cursor is the one that waited longest.
            let user = users[cursor]
            let step = user.totp.step(at: now)
            if lastSteps[cursor] < step {
                lastSteps[cursor] = step
                cursor = (cursor + 1) % users.count
                return (user, user.totp.code(forStep: step))
            }
            waits += 1
            let period = Double(user.totp.period)
            let untilNextStep = period - now.timeIntervalSince1970.truncatingRemainder(dividingBy: period)
            let wait = Duration.milliseconds(Int(untilNextStep * 1000) + 50)
            if let deadline, ContinuousClock.now + wait >= deadline { return nil }
            try await Task.sleep(for: wait)
        }
    }
}
