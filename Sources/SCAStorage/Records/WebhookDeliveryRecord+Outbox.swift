import Foundation

/// The outbox rule of a status change: the status and its webhook event are one
/// store operation, so a crash can neither store a final status without its event nor write
/// an event for a change that lost its compare-and-set. Backends run the compare-and-set and
/// this decision in one transaction, then write what it returns.
extension WebhookDeliveryRecord {
    /// The event to write with a status change.
    /// - Parameters:
    ///   - candidate: the event the change announces (nil when it announces none).
    ///   - statusStored: whether the compare-and-set on the status won.
    ///   - webhookRegistered: whether the candidate's client has a webhook now.
    /// - Returns: `candidate` when the change was stored and there is a receiver, else nil.
    package static func toEnqueue(
        _ candidate: WebhookDeliveryRecord?, statusStored: Bool, webhookRegistered: Bool
    ) -> WebhookDeliveryRecord? {
        guard statusStored, webhookRegistered, let candidate, candidate.status == .pending, candidate.attempts == 0 else {
            return nil
        }
        return candidate
    }
}
