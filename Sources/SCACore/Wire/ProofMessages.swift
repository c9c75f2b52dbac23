/// `POST /v1/challenges/{id}/proofs`: one factor.
package struct ProofRequest: Codable, Sendable, Equatable {
    package var method: AuthenticationMethod
    /// The password, PIN or code, for typed methods.
    package var credential: String?
    /// The signing device, for device signatures.
    package var deviceId: String?
    /// base64url raw `r||s` ECDSA signature, for device signatures.
    package var signature: String?
    /// What `navigator.credentials.get` returned for the challenge's `passkey` options, for
    /// the `passkey` method.
    package var assertion: PasskeyAssertionCredential?

    package init(
        method: AuthenticationMethod, credential: String? = nil, deviceId: String? = nil,
        signature: String? = nil, assertion: PasskeyAssertionCredential? = nil
    ) {
        self.method = method
        self.credential = credential
        self.deviceId = deviceId
        self.signature = signature
        self.assertion = assertion
    }
}

/// Whether a challenge needs more proofs or is done.
public enum ProofStatus: String, Codable, Sendable {
    case partial
    case complete
    /// A new address proved by its code created a user: the answer carries an
    /// enrolment token (`op` `enrolment`) that can add a second element, nothing else.
    case enrolment
}

/// The answer to a proof: `partial` with progress, or `complete` with the tokens.
public struct ProofResponse: Codable, Sendable, Equatable {
    public var status: ProofStatus
    public var satisfiedCategories: [Category]
    public var remainingCategories: Int
    /// Present when `status` is `complete` (or `enrolment`: the enrolment token).
    public var accessToken: String?
    public var tokenType: String?
    public var expiresIn: Int?
    public var refreshToken: String?
    public var operation: OperationKind?
    public var amr: [AuthenticationMethod]?
    public var acr: String?
    /// With `partial`: the methods the challenge offers now, to prove what remains. A
    /// sign-up-or-in challenge lists here, once its code is proven, the methods it
    /// did not show before; passkey options for them come with `GET /v1/challenges/{id}`.
    public var methods: [OfferedMethod]?

    public init(status: ProofStatus, satisfiedCategories: [Category], remainingCategories: Int) {
        self.status = status
        self.satisfiedCategories = satisfiedCategories
        self.remainingCategories = remainingCategories
    }

    public init(satisfiedCategories: [Category], tokens: TokenResponse, status: ProofStatus = .complete) {
        self.status = status
        self.satisfiedCategories = satisfiedCategories
        self.remainingCategories = 0
        self.accessToken = tokens.accessToken
        self.tokenType = tokens.tokenType
        self.expiresIn = tokens.expiresIn
        self.refreshToken = tokens.refreshToken
        self.operation = tokens.operation
        self.amr = tokens.amr
        self.acr = tokens.acr
    }

    /// The tokens, when the challenge is complete. (Never a sign-up's enrolment token: a
    /// caller that expects a sign-in cannot mistake one for it; see ``issuedTokens``.)
    public var tokens: TokenResponse? {
        guard status == .complete else { return nil }
        return issuedTokens
    }

    /// The tokens of a complete challenge, or the enrolment token of a sign-up.
    public var issuedTokens: TokenResponse? {
        guard status != .partial, let accessToken, let operation else { return nil }
        return TokenResponse(
            accessToken: accessToken, expiresIn: expiresIn ?? 0, refreshToken: refreshToken,
            operation: operation, amr: amr ?? [], acr: acr ?? TokenResponse.scaACR)
    }
}
