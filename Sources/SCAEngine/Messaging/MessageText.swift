import Foundation
import SCACore
import SCALocalization
import SCAStorage

/// Every message the server sends a person, worded in one place: codes, sign-up notices,
/// pushes and security alerts, each in the recipient's language. The sentences are the
/// catalogue's (`message.*`, whole sentences a translator words); amounts, dates and IBANs are
/// written by the ``Localizer`` as that language writes them.
///
/// An amount is regrouped, never computed on, so the code message names the very amount the
/// code is bound to (RTS art. 5: the payer is made aware of amount and payee). A partner's own
/// words (a settings change's description, a binding message) are shown as the partner wrote
/// them, in whatever language that was.
struct MessageText {
    /// The recipient's language and zone (``EngineService/messageText(locale:zoneinfo:)``).
    let words: Localizer

    /// The message with a delivered code and, for a payment, what the code approves; for a
    /// partner's request, the partner and what it asks.
    func code(_ code: String, for challenge: ChallengeRecord, lifetime: Int) -> String {
        var values = ["code": code, "minutes": String(max(1, lifetime / 60))]
        if challenge.transaction == nil, let delegation = challenge.delegation {
            values["partner"] = delegation.clientName
            if let beneficiary = delegation.beneficiary {
                values["name"] = beneficiary.name
                values["iban"] = words.iban(beneficiary.iban)
                return words.text("message.code.request.beneficiaryAdd", values)
            }
            if let summary = delegation.summary {
                values["summary"] = summary
                return words.text("message.code.request", values)
            }
        }
        if let transaction = challenge.transaction {
            var payee = transaction.payee.name
            if let iban = transaction.payee.iban { payee += ", \(TransactionRules.maskedIBAN(iban))" }
            values["amount"] = words.amount(transaction.amount, currency: transaction.currency)
            values["payee"] = payee
            return words.text("message.code.payment", values)
        }
        return words.text(Self.codeKey(for: challenge.operation), values)
    }

    /// The code message of an operation with nothing more to name, one sentence per
    /// operation, so each language words its own verb.
    private static func codeKey(for operation: OperationKind) -> String {
        switch operation {
        case .login, .enrolment: "message.code.operation.login"  // (enrolment is never challenged)
        case .payment: "message.code.operation.payment"
        case .settingsChange: "message.code.operation.settings_change"
        case .accountInfo: "message.code.operation.account_info"
        case .deviceActivation: "message.code.operation.device_activation"
        case .beneficiaryAdd: "message.code.operation.beneficiary_add"
        case .passwordReset: "message.code.operation.password_reset"
        }
    }

    /// What a known user gets when someone asks `POST /v1/signup-or-in` for a code to their
    /// address and the code could not sign them in (their codes of that kind are off, or the
    /// login policy does not take them): that they have an account and should sign in. It
    /// carries no code and no link, so nothing in it can be used by whoever typed the address.
    /// An SMS is kept short; `issuer` names the service.
    func signUpNotice(for channel: OutboundMessage.Channel, issuer: String) -> String {
        switch channel {
        case .sms, .push: words.text("message.signUpNotice.short", ["issuer": issuer])
        case .email: words.text("message.signUpNotice.email", ["issuer": issuer])
        }
    }

    /// "An operation is waiting" on the phone. A partner's request names the partner, so the
    /// user knows who asks; a change is named in the words it was asked with. `neutral` keeps a
    /// payment's amount and payee off the lock screen.
    func push(for operation: OperationRecord, delegation: Delegation?, neutral: Bool) -> String {
        var text: String
        if operation.transaction != nil, neutral {
            return words.text("message.push.payment.neutral")
        } else if let transaction = operation.transaction {
            text = words.text(
                "message.push.payment",
                ["amount": words.amount(transaction.amount, currency: transaction.currency), "payee": transaction.payee.name])
        } else if operation.operation == .login {
            text = words.text("message.push.login")
        } else if let summary = delegation?.summary ?? operation.bindingMessage {
            text = words.text("message.push.summary", ["summary": summary])
        } else {
            text = words.text("message.push.settingsChange")
        }
        if let delegation { text = words.text("message.push.fromPartner", ["partner": delegation.clientName, "text": text]) }
        return text
    }

    /// The alert before the permanent block (RTS: the user is told before it happens), the
    /// time in the user's zone, or in UTC, with the zone said.
    func blockedUntil(_ until: Date) -> String {
        words.text("message.blockedUntil", ["until": words.dateTime(until)])
    }

    /// The code that confirms a new e-mail address or phone number, sent to that address: it
    /// says what it is for, so a code nobody asked for is recognised as such.
    func contactCode(_ code: String, channel: OutboundMessage.Channel, lifetime: Int) -> String {
        words.text(
            channel == .email ? "message.contactCode.email" : "message.contactCode.phone",
            ["code": code, "minutes": String(max(1, lifetime / 60))])
    }

    /// The alert of the permanent block.
    func blockedPermanently() -> String {
        words.text("message.blockedPermanently")
    }

    /// A security alert: what happened and when, in the user's zone, then what to do if it
    /// was not them.
    func alert(_ alert: SecurityAlert, at time: Date) -> String {
        var values = ["time": words.dateTime(time)]
        switch alert {
        case .deviceBound(let name), .passkeyAdded(let name), .recoveryUsed(let name): values["name"] = name
        case .recoveryBlocked(let until?), .passwordResetRestricted(let until): values["until"] = words.dateTime(until)
        default: break
        }
        return words.text(alert.catalogueKey, values) + " " + words.text("message.alert.notYou")
    }
}

extension EngineService {
    /// The words of a message to one person: in the language stored on their account, else the
    /// configured default; times in their stored zone, else in UTC.
    /// - Parameters:
    ///   - locale: the profile's `locale` (or a sign-up's, before there is a profile).
    ///   - zoneinfo: the profile's `zoneinfo`.
    func messageText(locale: String?, zoneinfo: String? = nil) -> MessageText {
        MessageText(words: Localizer(
            catalogue: catalogue, language: ProfileLocale.language(stored: locale) ?? configuration.defaultLanguage,
            timeZone: ProfileLocale.timeZone(stored: zoneinfo)))
    }

    /// The words of a message to `user`, as their profile asks.
    func messageText(for user: UserRecord) -> MessageText {
        messageText(locale: user.profile.locale, zoneinfo: user.profile.zoneinfo)
    }
}
