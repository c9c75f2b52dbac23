import Foundation
import SCACore
import SCAStorage

/// Tells a user at once, on every channel they have, that something changed what protects
/// their account, and what to do if it was not them. Alerts are delivered in the background
/// (``MessageDispatcher``): neither the gateway's time nor its failure reaches the answer to
/// the change, and a failure is audited `message.delivery_failed`.
package struct SecurityAlerts: EngineService, Sendable {
    package let context: EngineContext
    let messages: MessageDispatcher

    /// One address a message goes to.
    package struct Recipient: Sendable, Equatable {
        package var channel: OutboundMessage.Channel
        package var address: String
    }

    /// Sends `alert`, worded in the user's language with the time in their zone.
    /// - Parameter formerAddresses: the e-mail address or phone number a change replaced: told
    ///   too, so the real owner hears of a change that took their channel away.
    func send(_ alert: SecurityAlert, to user: UserRecord, formerAddresses: [Recipient] = []) async {
        await send(
            messageText(for: user).alert(alert, at: runtime.now()), to: user, purpose: .securityAlert,
            formerAddresses: formerAddresses, naming: alert.name)
    }

    /// Sends a worded alert to every channel of `user` (and to `formerAddresses`), once per
    /// address, and records that it went (`alert.sent`: the purpose, the alert and the channels,
    /// never the text), so an operator reading the user's timeline sees what the user was told.
    /// - Parameter name: which alert, for the audit entry.
    func send(
        _ text: String, to user: UserRecord, purpose: MessagePurpose, formerAddresses: [Recipient] = [], naming name: String? = nil
    ) async {
        var recipients = Self.recipients(of: user)
        for former in formerAddresses where !recipients.contains(former) { recipients.append(former) }
        for recipient in recipients {
            await messages.submit(QueuedMessage(
                OutboundMessage(channel: recipient.channel, to: recipient.address, text: text, sentAt: runtime.now()),
                purpose: purpose, userID: user.id))
        }
        guard !recipients.isEmpty else { return }
        var details = ["purpose": purpose.rawValue, "channels": recipients.map(\.channel.rawValue).joined(separator: ",")]
        if let name { details["alert"] = name }
        await audit.record(.alertSent, userID: user.id, details: details)
    }

    /// The user's e-mail address and phone number. A user who signed up by phone has only a
    /// placeholder e-mail: their alerts go by SMS alone.
    static func recipients(of user: UserRecord) -> [Recipient] {
        var recipients: [Recipient] = []
        if !SignUpSettings.isPlaceholder(email: user.email) { recipients.append(Recipient(channel: .email, address: user.email)) }
        if let phone = user.phone { recipients.append(Recipient(channel: .sms, address: phone)) }
        return recipients
    }
}
