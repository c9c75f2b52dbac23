import Foundation

/// What the store keeps about one user beside the user's own row, devices and passkeys: the
/// sessions, the partners' sign-ins, the consents and the decoupled operations, read together
/// for an export of the user's data (GDPR art. 15 and 20).
public struct UserHoldings: Sendable, Equatable {
    public var sessions: [SessionRecord]
    public var authorizationGrants: [AuthorizationGrantRecord]
    public var consents: [ConsentRecord]
    public var operations: [OperationRecord]

    public init(
        sessions: [SessionRecord] = [], authorizationGrants: [AuthorizationGrantRecord] = [], consents: [ConsentRecord] = [],
        operations: [OperationRecord] = []
    ) {
        self.sessions = sessions
        self.authorizationGrants = authorizationGrants
        self.consents = consents
        self.operations = operations
    }
}
