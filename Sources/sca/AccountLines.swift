import Foundation
import SCACore
import SCALocalization

/// The account overview as terminal lines, one section per list of the account page, in the
/// reader's language. Names that came from elsewhere (a device's, a partner's) are shown
/// through ``Terminal/shown(_:)``, so none can move the cursor or fake a line.
struct AccountLines {
    let words: Localizer
    /// This device's id, marked in the device list.
    let thisDevice: String?

    func lines(of overview: AccountOverviewResponse) -> [String] {
        var lines: [String] = [words.text("account.terminal.user", ["email": Terminal.shown(overview.email)])]
        func section(_ key: String, _ items: [String]) {
            lines.append("")
            lines.append(words.text(key))
            lines.append(contentsOf: items.isEmpty ? ["  " + words.text("account.terminal.none")] : items.map { "  " + $0 })
        }
        let set = words.text("account.details.set")
        let notSet = words.text("account.details.notSet")
        var details = [
            words.text("account.details.email") + ": " + Terminal.shown(overview.email),
            words.text("account.details.phone") + ": " + (overview.phone.map(Terminal.shown) ?? notSet),
            words.text("account.details.pin") + ": " + (overview.hasPIN ? set : notSet),
            words.text("account.details.totp") + ": " + (overview.hasAuthenticatorApp ? set : notSet),
        ]
        details += overview.pendingContactChanges.map { words.text("account.pending.waiting", ["address": $0.sentTo]) }
        section("account.details.title", details)
        section("account.devices.title", overview.devices.map { device in
            var line = "\(device.deviceId == thisDevice ? "*" : "-") \(device.deviceId)  \(Terminal.shown(device.name))  "
                + words.text("terminal.deviceStatus.\(device.status.rawValue)")
            if let used = device.lastUsedAt { line += "  " + words.text("terminal.devices.lastUsed", ["time": words.dateTime(used)]) }
            return line
        })
        section("account.passkeys.title", overview.passkeys.map {
            "- \($0.passkeyId)  \(Terminal.shown($0.name))  " + words.text("account.added", ["time": words.dateTime($0.createdAt)])
        })
        section("account.sessions.title", overview.sessions.map { session in
            "\(session.current ? "*" : "-") \(session.sessionId)  "
                + words.text("account.sessions.lastUsed", ["time": words.dateTime(session.lastUsedAt)])
                + (session.current ? "  " + words.text("account.sessions.current") : "")
        })
        section("account.partners.title", overview.partners.map {
            "- \(Terminal.shown($0.clientId))  \(Terminal.shown($0.clientName))  "
                + words.text("account.partners.scopes", ["scopes": $0.scopes.joined(separator: " ")])
        })
        section("account.consents.title", overview.consents.map { consent in
            "- \(consent.consentId)  \(Terminal.shown(consent.clientName))  \(consentText(consent))  "
                + words.text("account.consents.status.\(consent.status.rawValue)")
        })
        section("account.beneficiaries.title", overview.beneficiaries.map {
            "- \($0.beneficiaryId)  \(Terminal.shown($0.name))  \($0.iban)"
        })
        lines.append("")
        lines.append(words.text("account.recovery.title"))
        if let sheet = overview.recoverySheet {
            lines.append("  " + words.text("account.recovery.status", count: sheet.puksLeft, ["issued": words.dateTime(sheet.issuedAt)]))
            if sheet.locked { lines.append("  " + words.text("account.recovery.locked")) }
        } else {
            lines.append("  " + words.text("account.recovery.none"))
        }
        section("account.activity.title", overview.activity.map { activity in
            var line = "\(words.dateTime(activity.time))  \(activityText(activity))"
            if let network = activity.network { line += "  " + words.text("account.activity.from", ["network": network]) }
            return line
        })
        return lines
    }

    func consentText(_ consent: AccountConsentResponse) -> String {
        switch consent.operation {
        case .payment:
            guard let amount = consent.amount, let currency = consent.currency else { break }
            return words.text(
                "account.consents.payment",
                ["amount": words.amount(amount, currency: currency), "payee": Terminal.shown(consent.payee ?? "")])
        case .beneficiaryAdd:
            return words.text("account.consents.beneficiary", ["name": Terminal.shown(consent.beneficiary ?? "")])
        case .settingsChange:
            return Terminal.shown(consent.summary ?? "")
        }
        return ""
    }

    func activityText(_ activity: AccountActivityResponse) -> String {
        var text = words.text("account.activity.\(activity.kind.rawValue)")
        if let amount = activity.amount, let currency = activity.currency {
            text += ": " + words.text(
                "account.activity.payment", ["amount": words.amount(amount, currency: currency), "payee": Terminal.shown(activity.payee ?? "")])
        }
        if let name = activity.name { text += ": " + Terminal.shown(name) }
        return text
    }
}
