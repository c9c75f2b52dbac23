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
    ///   - receiverRegistered: whether the candidate's client has the address of its kind now
    ///     (a webhook, a back-channel logout URI, a CIBA notification endpoint).
    /// - Returns: `candidate` when the change was stored and there is a receiver, else nil.
    package static func toEnqueue(
        _ candidate: WebhookDeliveryRecord?, statusStored: Bool, receiverRegistered: Bool
    ) -> WebhookDeliveryRecord? {
        guard statusStored, receiverRegistered, let candidate, candidate.status == .pending, candidate.attempts == 0 else {
            return nil
        }
        return candidate
    }
}

extension WebhookDeliveryRecord {
    /// The back-channel logout of a partner's session that has just ended. Its id is the
    /// session's, so a session is announced once however it ended, and it is the logout
    /// token's `jti` at every attempt, so the partner can drop a repeat.
    package static func logout(ofSession sessionID: String, clientID: String, now: Date) -> WebhookDeliveryRecord {
        WebhookDeliveryRecord(
            id: "lgo_\(sessionID)", kind: .backchannelLogout, clientID: clientID, subjectID: sessionID, body: "",
            nextAttemptAt: now, createdAt: now)
    }
}
