import Foundation
import SCACore

/// The audit trail as its user is shown it: a closed list of what a user would want to know
/// about (sign-ins, failed attempts, payments, new and removed devices and passkeys, changes),
/// each with its time and the client's network. Everything else an operator reads stays out.
///
/// A failed attempt never says which element was wrong: a rejected proof and a failed round are
/// one line per challenge, whatever the entries' details name.
package enum AccountActivity {
    /// What the shaping needs besides the entries: a payment challenge's transaction, and the
    /// names of devices and passkeys by id.
    package struct Context: Sendable {
        package var payments: [String: Transaction]
        package var names: [String: String]

        package init(payments: [String: Transaction] = [:], names: [String: String] = [:]) {
            self.payments = payments
            self.names = names
        }
    }

    /// The events that make a line, by their stored names.
    static let shown: Set<String> = [
        AuditEvent.challengeCompleted, .challengeFailed, .proofRejected, .userLocked, .deviceActivated, .deviceRemoved,
        .passkeyRegistered, .passkeyRemoved, .userSettingsChanged, .recoverySheetIssued, .recoveryCompleted,
        .accountSessionsEnded, .accountPartnerRevoked, .beneficiaryAdded, .beneficiaryRemoved, .signUpUserCreated,
    ].reduce(into: []) { $0.insert($1.rawValue) }

    /// The challenges of `entries` that completed a payment, whose transactions the lines show.
    package static func paymentChallenges(in entries: [AuditEntry]) -> [String] {
        entries.compactMap { entry in
            entry.draft.event == AuditEvent.challengeCompleted.rawValue && entry.draft.details["operation"] == "payment"
                ? entry.draft.challengeID : nil
        }
    }

    /// The lines of `entries` (newest first, as the trail reads them), at most `limit`.
    package static func lines(_ entries: [AuditEntry], context: Context, limit: Int) -> [AccountActivityResponse] {
        var lines: [AccountActivityResponse] = []
        var failedChallenges: Set<String> = []
        for entry in entries where shown.contains(entry.draft.event) {
            guard lines.count < limit else { break }
            let draft = entry.draft
            if draft.event == AuditEvent.challengeFailed.rawValue || draft.event == AuditEvent.proofRejected.rawValue {
                // One line per challenge, however many of its proofs were wrong.
                if let challenge = draft.challengeID {
                    guard failedChallenges.insert(challenge).inserted else { continue }
                }
            }
            if let line = line(for: draft, context: context) { lines.append(line) }
        }
        return lines
    }

    static func line(for draft: AuditEntryDraft, context: Context) -> AccountActivityResponse? {
        let operation = draft.details["operation"].flatMap(OperationKind.init(rawValue:))
        var line = AccountActivityResponse(
            time: draft.time, kind: .signIn, operation: operation, network: draft.clientAddress.flatMap(CoarseAddress.of))
        switch AuditEvent(rawValue: draft.event) {
        case .challengeCompleted:
            switch operation {
            case .login, .accountInfo: line.kind = .signIn
            case .payment:
                line.kind = .paymentApproved
                if let transaction = draft.challengeID.flatMap({ context.payments[$0] }) {
                    line.amount = transaction.amount
                    line.currency = transaction.currency
                    line.payee = transaction.payee.name
                }
            default: return nil
            }
        case .challengeFailed, .proofRejected: line.kind = .failedAttempt
        case .userLocked: line.kind = .locked
        case .deviceActivated:
            line.kind = .deviceAdded
            line.name = draft.deviceID.flatMap { context.names[$0] }
        case .deviceRemoved:
            line.kind = .deviceRemoved
            line.name = draft.deviceID.flatMap { context.names[$0] }
        case .passkeyRegistered:
            guard draft.outcome == "success" else { return nil }
            line.kind = .passkeyAdded
            line.name = draft.details["passkey"].flatMap { context.names[$0] }
        case .passkeyRemoved:
            line.kind = .passkeyRemoved
            line.name = draft.details["name"]
        case .userSettingsChanged: line.kind = .settingsChanged
        case .recoverySheetIssued: line.kind = .recoverySheetIssued
        case .recoveryCompleted: line.kind = .recovered
        case .accountSessionsEnded: line.kind = .sessionsEnded
        case .accountPartnerRevoked: line.kind = .partnerRevoked
        case .beneficiaryAdded: line.kind = .beneficiaryAdded
        case .beneficiaryRemoved: line.kind = .beneficiaryRemoved
        case .signUpUserCreated: line.kind = .signIn
        default: return nil
        }
        return line
    }
}
