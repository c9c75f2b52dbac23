import Foundation
import Logging
import SCACore
import SCAStorage

/// Consecutive failed attempts per user, across challenges (RTS art. 4(3)(b)): at the limit a
/// temporary block that doubles each time, then a permanent one, announced to the user first.
struct LockoutService: Sendable {
    let store: any SCAStore
    let policy: LockoutPolicy
    let alerts: any MessageSender
    let runtime: ServerRuntime
    let logger: Logger
    let audit: AuditTrail

    /// Counts one attempt before it is evaluated.
    /// - Throws: `Problem.userLocked` or `Problem.attemptsInProgress`.
    func reserveAttempt(for user: UserRecord) async throws {
        let now = runtime.now()
        switch try await store.reserveAttempt(userID: user.id, policy: policy, now: now) {
        case .granted: return
        case .locked(let until): throw Problem.userLocked(until: until, now: now)
        case .saturated: throw Problem.attemptsInProgress
        }
    }

    /// Keeps a wrong attempt counted; blocks and alerts when that reaches the limit.
    func recordFailure(for user: UserRecord) async throws -> FailureOutcome {
        let now = runtime.now()
        let outcome = try await store.recordFailure(userID: user.id, policy: policy, now: now)
        switch outcome {
        case .counted:
            break
        case .temporarilyBlocked(let until, let block):
            // Only the call that started the block alerts; others see the same block running.
            let started = until == now.addingTimeInterval(policy.blockDuration(forBlock: block))
            if started {
                logger.notice("user temporarily blocked", metadata: ["user": "\(user.id)", "block": "\(block)"])
                await audit.record(
                    .userLocked, outcome: "temporary", userID: user.id,
                    details: ["block": "\(block)", "until": ISO8601DateFormatter().string(from: until)])
                if block >= policy.maxTemporaryBlocks {
                    await alert(user, "Your account is blocked until \(Self.format(until)) after repeated failed "
                        + "authentication attempts. One more series of failed attempts will block it permanently. "
                        + "If this was not you, contact us.")
                }
            }
        case .permanentlyBlocked:
            logger.notice("user permanently blocked", metadata: ["user": "\(user.id)"])
            await audit.record(.userLocked, outcome: "permanent", userID: user.id)
            await alert(user, "Your account has been blocked after repeated failed authentication attempts. "
                + "Contact us to unblock it.")
        }
        return outcome
    }

    /// Failures left before the next block.
    func remainingAttempts(for userID: String) async throws -> Int {
        let failed = try await store.user(id: userID)?.lockout.failedAttempts ?? 0
        return max(0, policy.maxFailedAttempts - failed)
    }

    /// Security alerts go to every channel the user has; a failed delivery is logged, never
    /// allowed to change the answer to the attempt.
    private func alert(_ user: UserRecord, _ text: String) async {
        var recipients: [(OutboundMessage.Channel, String)] = [(.email, user.email)]
        if let phone = user.phone { recipients.append((.sms, phone)) }
        for (channel, address) in recipients {
            do {
                try await alerts.send(OutboundMessage(channel: channel, to: address, text: text, sentAt: runtime.now()))
            } catch {
                logger.error("security alert not delivered", metadata: ["user": "\(user.id)", "channel": "\(channel.rawValue)"])
            }
        }
    }

    private static func format(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
