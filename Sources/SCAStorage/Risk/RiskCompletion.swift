import Foundation
import SCACore

/// What a challenge completed with SCA changes in the risk engine's records, written with the
/// proof that completes it (``ProofCommit/risk``) rather than in a write of its own.
public enum RiskCompletion: Sendable, Equatable {
    /// The challenge's payment authorised, once, with its running aggregates; the user's state
    /// records it (``RiskState/paymentAuthenticated(seriesPayee:amount:currency:at:)``).
    case paymentAuthorised(challengeID: String, userID: String, at: Date)
    /// Account information's 180 days start again (art. 10).
    case accountInfoAuthenticated(userID: String, at: Date)

    /// What completing `challenge` with SCA changes: nil for operations the risk engine
    /// does not decide.
    package init?(completing challenge: ChallengeRecord, userID: String, at now: Date) {
        switch challenge.operation {
        case .payment: self = .paymentAuthorised(challengeID: challenge.id, userID: userID, at: now)
        case .accountInfo: self = .accountInfoAuthenticated(userID: userID, at: now)
        default: return nil
        }
    }

    /// The key of the user's ``RiskState``.
    package var stateKey: String {
        switch self {
        case .paymentAuthorised(_, let userID, _), .accountInfoAuthenticated(let userID, _): RiskState.keyPrefix + userID
        }
    }

    /// The user's state once the completion is recorded: for a payment, the counters start
    /// again and a recurring one fixes its series' terms. `payment` is the payment as just
    /// authorised (nil when there is none, or it was authorised before: the counters still
    /// start again).
    package func apply(to state: inout RiskState, payment: RiskPaymentRecord?) {
        switch self {
        case .paymentAuthorised(_, _, let at):
            state.paymentAuthenticated(
                seriesPayee: payment.flatMap { $0.recurring ? $0.payeeKey : nil }, amount: payment?.amount ?? "",
                currency: payment?.currency ?? "", at: at)
        case .accountInfoAuthenticated(_, let at):
            state.accountInfoSCAAt = at
        }
    }
}
