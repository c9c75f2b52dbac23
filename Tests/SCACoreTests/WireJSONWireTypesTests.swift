import Foundation
import SCACore
import Testing

/// Every message the server answers with, with every optional member set and with none, encodes
/// to the same bytes with ``WireJSONEncoder`` as with Foundation's `JSONEncoder`.
@Suite("WireJSONEncoder: wire types")
struct WireJSONWireTypesTests {
    /// Decodes `json` into `T` (so the sample is known to be a valid message) and compares both
    /// encoders' bytes; also checks the sample's members all came back, so none was misspelled.
    static func expectSameBytes<T: Codable>(
        _ type: T.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let value = try WireJSON.decoder().decode(T.self, from: Data(json.utf8))
        WireJSONEncoderTests.expectSameBytes(value, "\(T.self)", sourceLocation: sourceLocation)
        let written = try JSONSerialization.jsonObject(with: Data(try WireJSON.encode(value))) as? [String: Any]
        let sample = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(written.map { Set($0.keys) } == sample.map { Set($0.keys) }, "\(T.self)", sourceLocation: sourceLocation)
    }

    static let transaction = #"{"amount":"12.50","currency":"EUR","payee":{"name":"Café \"Zürich\"","iban":"DE89370400440532013000"},"reference":"inv/2026\\1"}"#
    static let tokens = #"{"accessToken":"eyJ.a.b","tokenType":"Bearer","expiresIn":300,"refreshToken":"r-1","operation":"payment","amr":["pin","device_key"],"acr":"psd2.sca","exemption":"low_value"}"#
    static let passkeyOptions = #"{"challenge":"Y2g","timeout":60000,"rpId":"bank.example","allowCredentials":[{"type":"public-key","id":"AAE"},{"type":"public-key","id":"AAF"}],"userVerification":"required"}"#
    static let device = #"{"deviceId":"d-1","name":"Anna's phone","platform":"ios","status":"active","hasBiometryKey":true,"failCount":0,"createdAt":"2026-01-02T03:04:05Z","lastUsedAt":"1969-07-20T20:17:40Z"}"#

    @Test("challenges: every optional set, none set, and the benchmark's pending login")
    func challenges() throws {
        try Self.expectSameBytes(
            ChallengeResponse.self,
            #"{"challengeId":"c-1","operation":"payment","state":"completed","expiresAt":"2026-11-23T10:00:00Z","requiredCategories":0,"satisfiedCategories":["knowledge","possession"],"verdict":"immediate","methods":[{"id":"pin","category":"knowledge"},{"id":"passkey","category":"possession"}],"nonce":"bm9uY2U","transactionDigest":"sha256:ab","display":{"amount":"12.50","currency":"EUR","payee":"Café","iban":"DE89 **** 3000"},"exemption":"low_value","tokens":\#(Self.tokens),"passkey":\#(Self.passkeyOptions)}"#)
        try Self.expectSameBytes(
            ChallengeResponse.self,
            #"{"challengeId":"c-2","operation":"login","state":"pending","expiresAt":"1970-01-01T00:00:00Z","requiredCategories":2,"satisfiedCategories":[],"verdict":"deferred","methods":[],"nonce":""}"#)
        try Self.expectSameBytes(CodeSentResponse.self, #"{"sentTo":"+49 *** 12","resendAfter":30}"#)
        let pending = ChallengeResponse(
            challengeId: "ch_01JD0", operation: .login, state: .pending, expiresAt: Date(timeIntervalSince1970: 1_795_000_000.123),
            requiredCategories: 2, satisfiedCategories: [], verdict: .immediate, methods: [OfferedMethod(.password), OfferedMethod(.pin)],
            nonce: "n0nce", transactionDigest: nil, display: nil)
        WireJSONEncoderTests.expectSameBytes(pending)
    }

    @Test("proofs and tokens")
    func proofsAndTokens() throws {
        try Self.expectSameBytes(
            ProofResponse.self,
            #"{"status":"complete","satisfiedCategories":["knowledge","possession"],"remainingCategories":0,"accessToken":"eyJ.a.b","tokenType":"Bearer","expiresIn":300,"refreshToken":"r","operation":"login","amr":["password","sms_otp"],"acr":"psd2.sca","methods":[{"id":"totp","category":"possession"}]}"#)
        try Self.expectSameBytes(ProofResponse.self, #"{"status":"partial","satisfiedCategories":["knowledge"],"remainingCategories":1}"#)
        try Self.expectSameBytes(TokenResponse.self, Self.tokens)
        try Self.expectSameBytes(TokenResponse.self, #"{"accessToken":"a","tokenType":"Bearer","expiresIn":1,"operation":"login","amr":[],"acr":"single-factor"}"#)
        try Self.expectSameBytes(
            IntrospectResponse.self,
            #"{"active":true,"sub":"u-1","op":"payment","sid":"s","jti":"j","amr":["pin"],"acr":"psd2.sca","txn":"sha256:x","exemption":"tra","iat":1700000000,"exp":1700000300,"roles":["admin","auditor"],"permissions":["users.read"],"auth_time":1700000000}"#)
        try Self.expectSameBytes(IntrospectResponse.self, #"{"active":false}"#)
    }

    @Test("problems")
    func problems() throws {
        try Self.expectSameBytes(
            Problem.self,
            #"{"type":"https://sca.example/problems/user.locked","title":"User locked","status":423,"code":"user.locked","detail":"Try again at 10:15 \"UTC\".\n","remainingAttempts":0,"retryAfter":900}"#)
        try Self.expectSameBytes(Problem.self, #"{"type":"about:blank","title":"Bad","status":400,"code":"request.invalid"}"#)
        WireJSONEncoderTests.expectSameBytes(Problem(status: 429, code: .requestInvalid, title: "Too many", detail: "ä/ö", retryAfter: 1))
    }

    @Test("operations and devices")
    func operationsAndDevices() throws {
        try Self.expectSameBytes(
            OperationResponse.self,
            #"{"operationId":"op-1","status":"rejected","operation":"payment","expiresAt":"2026-11-23T10:00:00Z","bindingMessage":"Pay 12.50 € to Café","rejectReason":"not_me","accessToken":"t"}"#)
        try Self.expectSameBytes(OperationResponse.self, #"{"operationId":"op-1","status":"pending","operation":"login","expiresAt":"2026-11-23T10:00:00Z"}"#)
        try Self.expectSameBytes(
            PendingOperationsResponse.self,
            #"{"operations":[{"operationId":"op","operation":"payment","transaction":\#(Self.transaction),"bindingMessage":"b","expiresAt":"2026-11-23T10:00:00Z","challengeId":"c","nonce":"n","transactionDigest":"d"},{"operationId":"op2","operation":"login","expiresAt":"2026-11-23T10:00:00Z","challengeId":"c2","nonce":"n2"}]}"#)
        try Self.expectSameBytes(PendingOperationsResponse.self, #"{"operations":[]}"#)
        try Self.expectSameBytes(OperationDecisionResponse.self, #"{"operationId":"op","status":"approved"}"#)
        try Self.expectSameBytes(DeviceNonceResponse.self, #"{"nonce":"n","expiresIn":60}"#)
        try Self.expectSameBytes(ActivationCodeResponse.self, #"{"activationCode":"ABCD-EFGH","expiresAt":"2026-11-23T10:00:00Z"}"#)
        try Self.expectSameBytes(RegisteredDeviceResponse.self, #"{"deviceId":"d","userId":"u","status":"blocked"}"#)
        try Self.expectSameBytes(DeviceStatusResponse.self, #"{"status":"active","failCount":1,"maxFailCount":5,"remainingAttempts":4}"#)
        try Self.expectSameBytes(DeviceResponse.self, Self.device)
        try Self.expectSameBytes(DeviceResponse.self, #"{"deviceId":"d","name":"","platform":"android","status":"removed","hasBiometryKey":false,"failCount":3,"createdAt":"2026-01-02T03:04:05Z"}"#)
    }

    @Test("users, profiles, sign-up")
    func usersAndProfiles() throws {
        try Self.expectSameBytes(CreatedUserResponse.self, #"{"userId":"u-1"}"#)
        try Self.expectSameBytes(
            UserResponse.self,
            #"{"userId":"u","email":"a@b.example","phone":"+49","roles":["admin"],"methods":["password","pin","totp"],"lock":{"state":"locked","failedAttempts":5,"temporaryBlocks":2,"lockedUntil":"2026-11-23T10:15:00Z"},"devices":[\#(Self.device)],"createdAt":"2026-01-01T00:00:00Z","loginPhone":"+49 1"}"#)
        try Self.expectSameBytes(
            UserResponse.self,
            #"{"userId":"u","email":"a@b.example","roles":[],"methods":[],"lock":{"state":"open","failedAttempts":0,"temporaryBlocks":0},"devices":[],"createdAt":"2026-01-01T00:00:00Z"}"#)
        try Self.expectSameBytes(TOTPEnrollmentResponse.self, #"{"secret":"JBSWY3DP","otpauthUri":"otpauth://totp/SCA:a%40b?secret=JBSWY3DP&issuer=SCA"}"#)
        try Self.expectSameBytes(
            ProfileResponse.self,
            #"{"userId":"u","email":"e","phone":"p","name":"Zoë","attributes":{"b":"1","a":"\u0001","Ä":"x"},"roles":["r"],"permissions":["p"],"methods":["pin"],"devices":2}"#)
        try Self.expectSameBytes(
            ProfileResponse.self, #"{"userId":"u","email":"e","attributes":{},"roles":[],"permissions":[],"methods":[],"devices":0}"#)
        try Self.expectSameBytes(
            EnrolmentResponse.self,
            #"{"userId":"u","methods":["password"],"totp":{"secret":"S","otpauthUri":"otpauth://x"},"activationCode":{"activationCode":"A","expiresAt":"2026-11-23T10:00:00Z"}}"#)
        try Self.expectSameBytes(EnrolmentResponse.self, #"{"userId":"u","methods":[]}"#)
    }

    @Test("passkeys")
    func passkeys() throws {
        try Self.expectSameBytes(PasskeyRequestOptions.self, Self.passkeyOptions)
        try Self.expectSameBytes(
            PasskeyCreationOptions.self,
            #"{"rp":{"id":"bank.example","name":"Bank"},"user":{"id":"dQ","name":"a@b","displayName":"Anna"},"challenge":"Y2g","pubKeyCredParams":[{"type":"public-key","alg":-7},{"type":"public-key","alg":-257}],"timeout":60000,"excludeCredentials":[{"type":"public-key","id":"AAE"}],"authenticatorSelection":{"residentKey":"preferred","requireResidentKey":false,"userVerification":"required"},"attestation":"none"}"#)
        try Self.expectSameBytes(
            PasskeyResponse.self,
            #"{"passkeyId":"p","name":"YubiKey","status":"suspect","backupEligible":true,"backedUp":false,"attestationType":"none","createdAt":"2026-01-01T00:00:00Z","lastUsedAt":"2026-02-01T00:00:00Z"}"#)
        try Self.expectSameBytes(
            PasskeyResponse.self,
            #"{"passkeyId":"p","name":"","status":"active","backupEligible":false,"backedUp":false,"attestationType":"packed","createdAt":"2026-01-01T00:00:00Z"}"#)
    }

    @Test("consents, partners, webhooks")
    func consentsPartnersWebhooks() throws {
        try Self.expectSameBytes(
            ConsentResponse.self,
            #"{"consentId":"c","consentUrl":"https://sca.example/consents/c","status":"Accepted","operation":"payment","transaction":\#(Self.transaction),"beneficiary":{"name":"B","iban":"DE89370400440532013000"},"description":"Rent","consentRedirectUrl":"https://tpp.example/cb?x=1&y=/","resourceId":"r","createdAt":"2026-01-01T00:00:00Z","expiresAt":"2026-01-01T00:15:00Z","accessToken":"t"}"#)
        try Self.expectSameBytes(
            ConsentResponse.self,
            #"{"consentId":"c","consentUrl":"u","status":"Created","operation":"settings_change","consentRedirectUrl":"r","createdAt":"2026-01-01T00:00:00Z","expiresAt":"2026-01-01T00:15:00Z"}"#)
        try Self.expectSameBytes(
            ConsentWebhookEvent.self,
            #"{"type":"consent.status","eventId":"e","consentId":"c","status":"CustomerRefused","resourceId":"r","occurredAt":"2026-01-01T00:00:00Z"}"#)
        try Self.expectSameBytes(
            ConsentWebhookEvent.self, #"{"type":"consent.status","eventId":"e","consentId":"c","status":"Started","occurredAt":"2026-01-01T00:00:00Z"}"#)
        try Self.expectSameBytes(
            PartnerClientResponse.self,
            #"{"clientId":"pc","name":"TPP","redirectUris":["https://tpp.example/cb"],"consentRedirectUris":[],"scopes":["openid","payments"],"publicClient":false,"createdAt":"2026-01-01T00:00:00Z","clientSecret":"s3cr3t","profile":"standard","tokenEndpointAuthMethod":"client_secret_basic","requirePushedAuthorizationRequests":false,"authorizationDetailsTypes":["payment_initiation"],"requireSignedRequestObject":false,"postLogoutRedirectUris":["https://tpp.example/bye"],"backchannelLogoutUri":"https://tpp.example/logout","backchannelTokenDeliveryMode":"ping","backchannelClientNotificationEndpoint":"https://tpp.example/ciba"}"#)
        try Self.expectSameBytes(
            PartnerClientResponse.self,
            #"{"clientId":"pc","name":"TPP","redirectUris":[],"consentRedirectUris":[],"scopes":[],"publicClient":true,"createdAt":"2026-01-01T00:00:00Z","profile":"standard","tokenEndpointAuthMethod":"none","requirePushedAuthorizationRequests":false,"authorizationDetailsTypes":[],"requireSignedRequestObject":false,"postLogoutRedirectUris":[],"backchannelTokenDeliveryMode":"poll"}"#)
        try Self.expectSameBytes(
            PartnerClientResponse.self,
            #"{"clientId":"pc","name":"OB","redirectUris":[],"consentRedirectUris":[],"scopes":["openid"],"publicClient":false,"createdAt":"2026-01-01T00:00:00Z","profile":"fapi2","tokenEndpointAuthMethod":"private_key_jwt","requirePushedAuthorizationRequests":true,"authorizationDetailsTypes":["payment_initiation","account_information"],"requireSignedRequestObject":true,"postLogoutRedirectUris":[],"backchannelTokenDeliveryMode":"poll","jwks":{"keys":[{"kty":"EC","crv":"P-256","kid":"k1","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}}"#)
        try Self.expectSameBytes(
            PartnerWebhookResponse.self, #"{"clientId":"pc","url":"https://tpp.example/hook","signingSecret":"whsec","createdAt":"2026-01-01T00:00:00Z"}"#)
        try Self.expectSameBytes(PartnerWebhookResponse.self, #"{"clientId":"pc","url":"https://tpp.example/hook","createdAt":"2026-01-01T00:00:00Z"}"#)
        try Self.expectSameBytes(
            WebhookEvent.self, #"{"type":"operation.status","eventId":"e","operationId":"o","status":"failed","occurredAt":"2026-01-01T00:00:00Z"}"#)
    }

    @Test("risk: beneficiaries, fraud reports, the quarterly report")
    func risk() throws {
        try Self.expectSameBytes(BeneficiaryResponse.self, #"{"beneficiaryId":"b","name":"N","iban":"DE89370400440532013000","addedAt":"2026-01-01T00:00:00Z"}"#)
        try Self.expectSameBytes(FraudReportResponse.self, #"{"reportId":"f","quarter":"2026-Q4","matchedPayment":true}"#)
        try Self.expectSameBytes(
            RiskReport.self,
            #"{"quarter":"2026-Q4","types":[{"type":"credit_transfer","volume":"1000.00","fraud":"0.10","ratePercent":"0.010","bands":[{"maxAmount":"100","referencePercent":"0.05","exceeded":false,"suspended":true}],"traSuspended":false},{"type":"card","volume":"0","fraud":"0","ratePercent":"0","bands":[],"traSuspended":true}],"exemptions":[{"exemption":"recurring","applied":true,"reason":"same amount and payee"}]}"#)
        try Self.expectSameBytes(RiskReport.self, #"{"quarter":"2026-Q1","types":[],"exemptions":[]}"#)
    }
}
