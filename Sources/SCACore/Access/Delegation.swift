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
    /// What the user approves in the partner's own words, shown verbatim in the code message
    /// and the push: a settings change's description, an operation's binding message. Nil for
    /// a sign-in, for a payment (its transaction names it) and for a new beneficiary.
    ///
    /// Challenges stored before ``beneficiary`` existed hold a new beneficiary here too, as an
    /// English sentence; they are shown as they are.
    public var summary: String?
    /// The trusted beneficiary a partner asks the user to add: kept as name and IBAN, not as a
    /// sentence, so that every message says it in the language of the person who reads it.
    /// Nil for everything else (and in rows stored before it existed, which decode as nil).
    public var beneficiary: ConsentBeneficiary?
    /// What a sign-in's `authorization_details` asked and the user approved: a payment (then
    /// the challenge is that payment's, bound to its transaction) or account information. Every
    /// token of the grant carries it. Nil for a sign-in by scope and for everything else.
    public var authorizationDetail: AuthorizationDetail?

    public enum Grant: Codable, Sendable, Equatable {
        /// A sign-in through the authorization code flow.
        case signIn
        /// A consent the partner created (`cst_…`).
        case consent(id: String)
        /// A decoupled operation the partner created, CIBA's included (`op_…`).
        case operation(id: String)
    }

    public init(
        clientID: String, clientName: String, scopes: [String] = [], grant: Grant, summary: String? = nil,
        beneficiary: ConsentBeneficiary? = nil, authorizationDetail: AuthorizationDetail? = nil
    ) {
        self.authorizationDetail = authorizationDetail
        self.clientID = clientID
        self.clientName = clientName
        self.scopes = scopes
        self.grant = grant
        self.summary = summary
        self.beneficiary = beneficiary
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
