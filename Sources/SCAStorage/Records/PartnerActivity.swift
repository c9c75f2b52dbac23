import Foundation
import SCACore

/// What a partner client holds of the bank's users and what waits to be sent to it: the
/// console's partners page reads it for each client.
public struct PartnerActivity: Sendable, Equatable {
    /// Sessions not ended and used at or after the time asked about.
    public var openSessions: Int
    /// Users who signed in to the client at least once.
    public var grantedUsers: Int
    /// The client's consents by status; a status without any is absent.
    public var consents: [ConsentStatus: Int]
    /// The client's webhook deliveries (events, back-channel logouts, CIBA pings) by status; a
    /// status without any is absent.
    public var deliveries: [WebhookDeliveryRecord.Status: Int]
    /// Pending deliveries whose last attempt failed: waiting for a retry.
    public var retrying: Int

    public init(
        openSessions: Int = 0, grantedUsers: Int = 0, consents: [ConsentStatus: Int] = [:],
        deliveries: [WebhookDeliveryRecord.Status: Int] = [:], retrying: Int = 0
    ) {
        self.openSessions = openSessions
        self.grantedUsers = grantedUsers
        self.consents = consents
        self.deliveries = deliveries
        self.retrying = retrying
    }
}
