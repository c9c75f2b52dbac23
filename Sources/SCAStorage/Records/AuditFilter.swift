import Foundation

/// Which audit entries a reader asks for (the console's audit view, `GET /admin/v1/audit` and
/// its export): each condition given narrows the entries; none given is the whole trail.
public struct AuditFilter: Sendable, Equatable {
    /// Entries that name this user.
    public var userID: String?
    /// Entries of this event, by its stored name (`proof.rejected`).
    public var event: String?
    /// Entries at or after this moment.
    public var from: Date?
    /// Entries before this moment.
    public var to: Date?

    public init(userID: String? = nil, event: String? = nil, from: Date? = nil, to: Date? = nil) {
        self.userID = userID
        self.event = event
        self.from = from
        self.to = to
    }
}
