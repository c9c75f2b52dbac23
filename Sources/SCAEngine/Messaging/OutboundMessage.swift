import Foundation

/// A message to a user: a one-time code, or a security alert.
package struct OutboundMessage: Codable, Sendable, Equatable {
    package enum Channel: String, Codable, Sendable {
        case sms
        case email
        /// A push notification to a bound device (`to` is the device id).
        case push
    }

    package var channel: Channel
    package var to: String
    package var text: String
    package var sentAt: Date
    /// For `push`: the operation the phone is asked to approve.
    package var operationId: String?

    package init(channel: Channel, to: String, text: String, sentAt: Date, operationId: String? = nil) {
        self.channel = channel
        self.to = to
        self.text = text
        self.sentAt = sentAt
        self.operationId = operationId
    }
}
