import Foundation
import SCACore

/// What a user approves, in words, for the `operation` partial: a headline in the code
/// message's wording, the details as a list, and a hint. The consent page and a sign-in that
/// asks with `authorization_details` show a payment with the same words, digit for digit the
/// amount the proof binds.
enum ApprovalDetails {
    /// A payment: amount, payee, IBAN, reference.
    static func payment(_ transaction: Transaction, words: PageWords) -> [String: Any] {
        let amount = words.amount(transaction.amount, currency: transaction.currency)
        var details = [row(words.text("consent.detail.amount"), amount, style: "amount")]
        details.append(row(words.text("consent.detail.payee"), transaction.payee.name))
        if let iban = transaction.payee.iban {
            details.append(row(words.text("consent.detail.iban"), words.iban(iban), style: "iban"))
        }
        if let reference = transaction.reference {
            details.append(row(words.text("consent.detail.reference"), reference))
        }
        return [
            "headline": words.text("operation.payment", ["amount": amount, "payee": transaction.payee.name]),
            "hint": words.text("consent.hint.payment"), "details": details, "consent": true,
        ]
    }

    /// A trusted beneficiary to add: its name and IBAN.
    static func beneficiaryAdd(_ beneficiary: ConsentBeneficiary, words: PageWords) -> [String: Any] {
        [
            "headline": words.text("consent.beneficiaryAdd.headline", ["name": beneficiary.name]),
            "hint": words.text("consent.hint.change"), "consent": true,
            "details": [
                row(words.text("consent.detail.name"), beneficiary.name),
                row(words.text("consent.detail.iban"), words.iban(beneficiary.iban), style: "iban"),
            ],
        ]
    }

    /// Account information: which accounts, what of them, and until when.
    static func accountAccess(_ access: AccountInformation, words: PageWords) -> [String: Any] {
        var details = access.accounts.map { row(words.text("consent.detail.account"), words.iban($0), style: "iban") }
        let what = access.access.map { words.text("authorize.access.\($0)") }.joined(separator: ", ")
        details.append(row(words.text("consent.detail.access"), what))
        if let expiry = access.expiry {
            details.append(row(words.text("consent.detail.validUntil"), words.dateTime(expiry)))
        }
        return [
            "headline": words.text("authorize.accounts.headline"), "hint": words.text("consent.hint.accounts"),
            "details": details, "consent": true,
        ]
    }

    /// What a sign-in's `authorization_details` asks.
    static func of(_ detail: AuthorizationDetail, words: PageWords) -> [String: Any] {
        switch detail {
        case .paymentInitiation(let initiation): payment(initiation.transaction, words: words)
        case .accountInformation(let access): accountAccess(access, words: words)
        }
    }

    private static func row(_ label: String, _ value: String, style: String = "") -> [String: String] {
        ["label": label, "value": value, "style": style]
    }
}
