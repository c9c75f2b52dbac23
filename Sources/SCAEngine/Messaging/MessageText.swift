import Foundation
import SCACore
import SCAStorage

/// Every message the server sends a person, worded in one place: codes, sign-up notices,
/// pushes and security alerts. The words of an operation itself (an amount, an IBAN, a
/// partner's request) are ``OperationWording``'s, shared with the pages and the terminal app,
/// so what a message names is what the page shows.
enum MessageText {
    /// The message with a delivered code and, for a payment, what the code approves (RTS art. 5:
    /// the payer is made aware of amount and payee); for a partner's request, the partner and
    /// what it asks in the words of the page.
    static func code(_ code: String, for challenge: ChallengeRecord, lifetime: Int) -> String {
        let minutes = max(1, lifetime / 60)
        if challenge.transaction == nil, let delegation = challenge.delegation, let summary = delegation.summary {
            return "\(code) is your code. \(OperationWording.request(by: delegation.clientName, summary)). "
                + "Valid \(minutes) min. If you did not ask for this, do not share it."
        }
        if let transaction = challenge.transaction {
            var payee = transaction.payee.name
            if let iban = transaction.payee.iban { payee += ", \(TransactionRules.maskedIBAN(iban))" }
            let amount = OperationWording.amount(transaction.amount, currency: transaction.currency)
            return "\(code) is your code to pay \(amount) to \(payee). "
                + "Valid \(minutes) min. If you did not start this payment, do not share it."
        }
        let purpose = challenge.operation.rawValue.replacingOccurrences(of: "_", with: " ")
        return "\(code) is your code for \(purpose). Valid \(minutes) min. Never share it."
    }

    /// What a known user gets when someone asks `POST /v1/signup-or-in` for a code to their
    /// address and the code could not sign them in (their codes of that kind are off, or the
    /// login policy does not take them): that they have an account and should sign in. It
    /// carries no code and no link, so nothing in it can be used by whoever typed the address.
    /// An SMS is kept short; `issuer` names the service.
    static func signUpNotice(for channel: OutboundMessage.Channel, issuer: String) -> String {
        switch channel {
        case .sms, .push:
            return "Someone tried to create a \(issuer) account with this number. You already have one: please sign in. "
                + "If it was not you, ignore this message."
        case .email:
            return "Someone tried to create a \(issuer) account with this e-mail address. You already have an account "
                + "with it, so none was created: please sign in instead. If it was not you, you can ignore this message; "
                + "nobody can use it to sign in as you."
        }
    }

    /// "An operation is waiting" on the phone. A partner's request names the partner, so the
    /// user knows who asks; a change is named in the words it was asked with. `neutral` keeps a
    /// payment's amount and payee off the lock screen.
    static func push(for operation: OperationRecord, delegation: Delegation?, neutral: Bool) -> String {
        var text: String
        if operation.transaction != nil, neutral {
            return "You have a payment to approve"
        } else if let transaction = operation.transaction {
            text = "Approve paying \(transaction.amount) \(transaction.currency) to \(transaction.payee.name)?"
        } else if operation.operation == .login {
            text = "Approve signing in?"
        } else if let summary = delegation?.summary ?? operation.bindingMessage {
            text = "Approve: \(summary)?"
        } else {
            text = "Approve a change of your settings?"
        }
        if let delegation { text = "\(delegation.clientName): \(text)" }
        return text
    }

    /// The alert before the permanent block (RTS: the user is told before it happens).
    static func blockedUntil(_ until: Date) -> String {
        "Your account is blocked until \(ISO8601DateFormatter().string(from: until)) after repeated failed "
            + "authentication attempts. One more series of failed attempts will block it permanently. "
            + "If this was not you, contact us."
    }

    /// The alert of the permanent block.
    static let blockedPermanently =
        "Your account has been blocked after repeated failed authentication attempts. Contact us to unblock it."
}
