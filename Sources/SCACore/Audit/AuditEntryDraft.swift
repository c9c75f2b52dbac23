import Foundation

/// A security event as a service describes it, before the store gives it its place in the
/// chain (sequence number, previous hash, hash).
///
/// Never put a secret here (a password, a code, a token, a key): the audit trail is read by
/// operators and auditors, and is exported as plain JSON.
public struct AuditEntryDraft: Sendable, Equatable {
    /// When it happened, truncated to whole milliseconds: the stored form, so the hash of an
    /// entry read back equals the hash computed when it was appended.
    public var time: Date
    /// What happened, such as `challenge.completed` or `admin.user_unblocked`.
    public var event: String
    /// Who caused it: `client` (the public API), `admin` (the admin API), `cli` (the
    /// operator's command line), or `system`.
    public var actor: String
    public var userID: String?
    public var deviceID: String?
    public var challengeID: String?
    public var sessionID: String?
    /// The client's address, when the event happened within a request.
    public var clientAddress: String?
    /// The request's id, when the event happened within a request.
    public var requestID: String?
    /// How it ended, such as `success`, `accepted`, `rejected`.
    public var outcome: String
    /// A few more facts (a method, a status, a block number); never a secret.
    public var details: [String: String]
    /// The keyed digest of the entry's personal facts (``personalFacts``), when it was sealed
    /// (``sealingPersonalFacts(with:)``): the chain then hashes this digest instead of the facts,
    /// so that erasing them later (a person's right to erasure) leaves every link intact.
    /// Nil for entries written before facts were sealed, and for entries without any.
    public var personalDigest: String?

    public init(
        time: Date, event: String, actor: String, userID: String? = nil, deviceID: String? = nil,
        challengeID: String? = nil, sessionID: String? = nil, clientAddress: String? = nil, requestID: String? = nil,
        outcome: String, details: [String: String] = [:], personalDigest: String? = nil
    ) {
        self.time = AuditEntry.date(millisecondsSince1970: AuditEntry.milliseconds(time))
        self.event = event
        self.actor = actor
        self.userID = userID
        self.deviceID = deviceID
        self.challengeID = challengeID
        self.sessionID = sessionID
        self.clientAddress = clientAddress
        self.requestID = requestID
        self.outcome = outcome
        self.details = details
        self.personalDigest = personalDigest
    }
}
