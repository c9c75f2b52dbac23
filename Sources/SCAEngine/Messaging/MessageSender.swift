/// Delivers messages to users. The server never logs what it sends: messages carry codes.
package protocol MessageSender: Sendable {
    /// - Throws: when the message could not be handed over for delivery.
    func send(_ message: OutboundMessage) async throws
}
