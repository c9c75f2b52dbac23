import Foundation

/// A message to a user: a one-time code, or a security alert.
public struct OutboundMessage: Codable, Sendable, Equatable {
    public enum Channel: String, Codable, Sendable {
        case sms
        case email
    }

    public var channel: Channel
    public var to: String
    public var text: String
    public var sentAt: Date

    public init(channel: Channel, to: String, text: String, sentAt: Date) {
        self.channel = channel
        self.to = to
        self.text = text
        self.sentAt = sentAt
    }
}
