import Foundation
import SCACore
import SCAEngine

/// A user's audit entries as an operator reads them: what happened, when, by whom. Never which
/// element of a failed round was wrong: a rejected proof reads as a failed attempt, whatever
/// the entry's details say.
enum ConsoleTimeline {
    /// The events with words of their own (`console.event.<event>`); any other shows its
    /// stored name.
    static let named: Set<String> = [
        "challenge.created", "challenge.completed", "challenge.failed", "challenge.expired", "challenge.cancelled",
        "proof.accepted", "proof.rejected", "user.locked", "admin.user_unblocked", "admin.sessions_ended",
        "device.activated", "device.blocked", "device.unblocked", "device.removed", "passkey.registered",
        "passkey.removed", "code.sent", "token.revoked", "user.settings_changed", "admin.roles_changed",
        "admin.user_updated", "admin.totp_enrolled", "admin.totp_removed", "account.partner_revoked", "admin.user_exported",
        "admin.access_denied",
        "operation.finished", "consent.changed", "beneficiary.added", "risk.decision", "risk.tra_suspended",
        "risk.tra_resumed", "risk.fraud_reported",
        "recovery.sheet_issued", "recovery.completed", "recovery.failed", "recovery.locked", "password.reset",
        "user.restriction_lifted", "alert.sent",
    ]

    /// - Parameter payment: the payment the entry approved, if it did: its amount and payee.
    static func row(_ entry: AuditEntry, payment: Transaction? = nil, words: PageWords) -> [String: Any] {
        let draft = entry.draft
        let event = named.contains(draft.event) ? words.text("console.event.\(draft.event)") : draft.event
        var detail: [String] = []
        if let operation = draft.details["operation"].flatMap(OperationKind.init(rawValue:)) {
            detail.append(words.text("console.operation.\(operation.rawValue)"))
        }
        switch draft.event {
        case "user.locked":
            detail.append(words.text(draft.outcome == "permanent" ? "console.status.permanent" : "console.outcome.temporary"))
        case "proof.accepted", "proof.rejected", "challenge.completed":
            break
        case "alert.sent":
            // Which alert, and where it went; never its text.
            if let alert = draft.details["alert"] { detail.append(alert) }
            if let channels = draft.details["channels"] { detail.append(channels.replacingOccurrences(of: ",", with: ", ")) }
        default:
            if draft.outcome != "success" { detail.append(draft.outcome) }
        }
        if let payment {
            var payee = payment.payee.name
            if let iban = payment.payee.iban { payee += " (\(TransactionRules.maskedIBAN(iban)))" }
            detail.append(
                words.text("console.timeline.payment", ["amount": payment.amount, "currency": payment.currency, "payee": payee]))
        }
        if let address = draft.clientAddress { detail.append(address) }
        return [
            "time": words.dateTime(draft.time), "event": event, "detail": detail.joined(separator: " · "),
            "actor": actor(draft.actor, words: words),
        ]
    }

    /// Who acted: an operator (by id), an admin key, the bootstrap key, the server's command
    /// line, or the user through an application.
    private static func actor(_ actor: String, words: PageWords) -> String {
        if actor.hasPrefix("operator:") { return words.text("console.actor.operator", ["id": String(actor.dropFirst(9))]) }
        if actor.hasPrefix("key:") { return words.text("console.actor.key", ["name": String(actor.dropFirst(4))]) }
        switch actor {
        case "admin": return words.text("console.actor.admin")
        case "cli": return words.text("console.actor.cli")
        default: return words.text("console.actor.user")
        }
    }
}
