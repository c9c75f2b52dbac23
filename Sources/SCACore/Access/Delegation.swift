/// What a partner was granted, carried by the challenge that earns the grant and by every token
/// issued from it. A token without one is first-party: the bank's own app, `sca`, the account
/// page and the console. A token with one is the partner's alone: it names the client, the
/// scopes granted and, for a consent or an operation, which one.
public struct Delegation: Codable, Sendable, Equatable {
    /// The partner's `client_id`.
    public var clientID: String
    /// The partner's name as the user read it on the page, for the messages that carry a code.
    public var clientName: String
    /// The OAuth scopes granted: a sign-in's or a CIBA request's; empty for a consent or an
    /// operation, whose token is good for that one operation only.
    public var scopes: [String]
    /// What the grant came from.
    public var grant: Grant
    /// What the user approves, in the words the page, the code message and the push show:
    /// "add Mallory Ltd (FR76 3000 6000 0112 3456 7890 189) as a trusted beneficiary". Nil for a
    /// sign-in and for a payment, whose words come from its transaction.
    public var summary: String?

    public enum Grant: Codable, Sendable, Equatable {
        /// A sign-in through the authorization code flow.
        case signIn
        /// A consent the partner created (`cst_…`).
        case consent(id: String)
        /// A decoupled operation the partner created, CIBA's included (`op_…`).
        case operation(id: String)
    }

    public init(clientID: String, clientName: String, scopes: [String] = [], grant: Grant, summary: String? = nil) {
        self.clientID = clientID
        self.clientName = clientName
        self.scopes = scopes
        self.grant = grant
        self.summary = summary
    }

    /// The consent the grant came from, if it came from one.
    public var consentID: String? {
        if case .consent(let id) = grant { return id }
        return nil
    }

    /// The operation the grant came from, if it came from one.
    public var operationID: String? {
        if case .operation(let id) = grant { return id }
        return nil
    }
}
