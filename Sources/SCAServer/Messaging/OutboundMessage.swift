import Foundation

/// A message to a user: a one-time code, or a security alert.
public struct OutboundMessage: Codable, Sendable, Equatable {
    public enum Channel: String, Codable, Sendable {
        case sms
        case email
        /// A push notification to a bound device (`to` is the device id).
        case push
    }

    public var channel: Channel
    public var to: String
    public var text: String
    public var sentAt: Date
    /// For `push`: the operation the phone is asked to approve.
    public var operationId: String?

    public init(channel: Channel, to: String, text: String, sentAt: Date, operationId: String? = nil) {
        self.channel = channel
        self.to = to
        self.text = text
        self.sentAt = sentAt
        self.operationId = operationId
    }
}
