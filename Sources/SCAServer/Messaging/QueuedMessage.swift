/// A message handed to the ``MessageDispatcher``, with what its audit entry names if it cannot
/// be delivered: who it was for and why, never its text.
public struct QueuedMessage: Sendable {
    public var message: OutboundMessage
    public var purpose: MessagePurpose
    public var userID: String?
    public var challengeID: String?

    public init(_ message: OutboundMessage, purpose: MessagePurpose, userID: String? = nil, challengeID: String? = nil) {
        self.message = message
        self.purpose = purpose
        self.userID = userID
        self.challengeID = challengeID
    }
}
