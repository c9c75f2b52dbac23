import Foundation

/// One message to a partner waiting in the durable outbox, or its outcome: a webhook event, a
/// back-channel logout, or a CIBA ping. An event's body is fixed when the event happens, so
/// every retry posts the same bytes under the same event id.
public struct WebhookDeliveryRecord: Sendable, Equatable {
    /// What is sent, and so to which of the client's addresses.
    public enum Kind: String, Sendable {
        /// A signed event to the client's webhook (`body`).
        case event
        /// A logout token (OpenID Connect Back-Channel Logout) for the ended session
        /// `subjectID`, to the client's `backchannelLogoutURI`, signed at each attempt.
        case backchannelLogout = "backchannel_logout"
        /// A CIBA ping (`body`) for the operation `subjectID`, to the client's notification
        /// endpoint, under the notification token the request carried.
        case cibaPing = "ciba_ping"
    }

    public enum Status: String, Sendable {
        /// Waiting for its next attempt (`nextAttemptAt`).
        case pending
        case delivered
        /// Every attempt failed; no more are made.
        case abandoned
    }

    /// The event id, sent as `SCA-Webhook-Id` so the receiver can drop duplicates.
    public var id: String
    public var kind: Kind
    public var clientID: String
    /// What the event is about: an operation id (`op_…`), a consent id, or a session id.
    public var subjectID: String
    /// The raw JSON body.
    public var body: String
    public var status: Status
    /// Attempts made so far.
    public var attempts: Int
    public var nextAttemptAt: Date
    /// While an instance is sending it: no other instance claims it before this time.
    public var leaseUntil: Date?
    /// The receiver's HTTP status on the last attempt (nil when it was not reached).
    public var lastHTTPStatus: Int?
    public var createdAt: Date
    public var finishedAt: Date?
    /// Compare-and-set version.
    public var version: Int

    public init(
        id: String, kind: Kind = .event, clientID: String, subjectID: String, body: String, status: Status = .pending, attempts: Int = 0,
        nextAttemptAt: Date, leaseUntil: Date? = nil, lastHTTPStatus: Int? = nil, createdAt: Date,
        finishedAt: Date? = nil, version: Int = 0
    ) {
        self.id = id
        self.kind = kind
        self.clientID = clientID
        self.subjectID = subjectID
        self.body = body
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.leaseUntil = leaseUntil
        self.lastHTTPStatus = lastHTTPStatus
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.version = version
    }
}
