import Tracing

/// A message handed to the ``MessageDispatcher``, with what its audit entry names if it cannot
/// be delivered: who it was for and why, never its text.
package struct QueuedMessage: Sendable {
    package var message: OutboundMessage
    package var purpose: MessagePurpose
    package var userID: String?
    package var challengeID: String?
    /// The span of the request that queued it (nil without tracing): the gateway call made later,
    /// in the background, is its child, and the gateway's `traceparent` names the request's trace.
    var trace: InstrumentationContext?

    package init(_ message: OutboundMessage, purpose: MessagePurpose, userID: String? = nil, challengeID: String? = nil) {
        self.message = message
        self.purpose = purpose
        self.userID = userID
        self.challengeID = challengeID
        self.trace = InstrumentationContext.current
    }
}
