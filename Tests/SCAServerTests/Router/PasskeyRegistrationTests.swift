import Foundation
import SCACore
import SCAEngine
import SCATestSupport
import Testing

/// Registering a passkey needs its own SCA (RTS art. 24): options and registration take a
/// `settings_change` token, which the registration spends. Driven by a software authenticator
/// through the real routes.
@Suite("Passkey registration")
struct PasskeyRegistrationTests {
    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.webauthnRPID = "localhost"
        configuration.webauthnOrigins = ["http://localhost:8080"]
    }

    /// Password and TOTP on a new challenge for `operation`; returns the access token.
    static func token(_ api: APIClient, _ operation: OperationKind, email: String, totp: TOTP) async throws -> String {
        api.clock.advance(by: 30)  // a TOTP step is accepted once
        let challenge = try await api.startChallenge(operation, email: email)
        #expect(try await api.prove(challenge.challengeId, .password, "correct horse battery").status == 200)
        let done = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now()))
        return try #require(try done.decode(ProofResponse.self).accessToken)
    }

    static func options(_ api: APIClient, token: String) async throws -> PasskeyCreationOptions {
        let response = try await api.bearer(.post, "/v1/passkeys/registration/options", token: token)
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return try response.decode(PasskeyCreationOptions.self)
    }

    static func register(
        _ api: APIClient, _ credential: PasskeyRegistrationCredential, token: String, name: String? = nil
    ) async throws -> APIResponse {
        try await api.bearer(
            .post, "/v1/passkeys", token: token,
            body: try WireJSON.encoder().encode(RegisterPasskeyRequest(name: name, credential: credential)))
    }

    /// A user with password and TOTP and one registered passkey; returns the user id, TOTP and passkey id.
    static func enrolled(
        _ api: APIClient, _ email: String, _ authenticator: SoftwarePasskey
    ) async throws -> (userID: String, totp: TOTP, passkeyID: String) {
        let userID = try await api.createUser(email)
        let totp = try await api.enrollTOTP(userID)
        let settings = try await token(api, .settingsChange, email: email, totp: totp)
        let created = try await register(api, authenticator.register(try await options(api, token: settings)), token: settings)
        #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
        return (userID, totp, try created.decode(PasskeyResponse.self).passkeyId)
    }

    func auditEvents(_ api: APIClient, _ event: String) async throws -> [AuditEntryDraft] {
        try await api.services.store.auditEntries(after: 0, limit: 1_000).map(\.draft).filter { $0.event == event }
    }

    @Test("options need a settings_change token and describe a discoverable, user-verified ES256 credential")
    func optionsNeedSCA() async throws {
        try await TestServer(Self.configure).run { api in
            let userID = try await api.createUser("pk@example.com")
            let totp = try await api.enrollTOTP(userID)
            let login = try await Self.token(api, .login, email: "pk@example.com", totp: totp)
            let refused = try await api.bearer(.post, "/v1/passkeys/registration/options", token: login)
            #expect(refused.status == 403)
            #expect(refused.problem?.code == .forbidden)
            #expect(try await api.send(.post, "/v1/passkeys/registration/options").status == 401)

            let settings = try await Self.token(api, .settingsChange, email: "pk@example.com", totp: totp)
            let options = try await Self.options(api, token: settings)
            #expect(options.rp == PasskeyRelyingParty(id: "localhost", name: "swift-sca"))
            // A random handle, not the user's id or address. (Checking for the two letters "pk"
            // in 43 random base64url characters failed about once in a hundred runs.)
            let handle = try #require(Base64URL.decode(options.user.id))
            #expect(handle.count == 32)
            #expect(!options.user.id.contains(userID) && handle != Array(userID.utf8) && handle != Array("pk@example.com".utf8))
            #expect(options.user.name == "pk@example.com")
            #expect(options.pubKeyCredParams.map(\.alg) == [-7, -8, -257])
            #expect(options.authenticatorSelection.residentKey == "preferred")
            #expect(options.authenticatorSelection.userVerification == "required")
            #expect(options.attestation == "none" && options.excludeCredentials.isEmpty)
            // The handle is stable; each challenge is fresh.
            let again = try await Self.options(api, token: settings)
            #expect(again.user.id == options.user.id && again.challenge != options.challenge)
        }
    }

    @Test("register, list, exclude, refuse a duplicate; the token is spent by the registration")
    func registerAndList() async throws {
        try await TestServer(Self.configure).run { api in
            let authenticator = SoftwarePasskey()
            let (userID, totp, passkeyID) = try await Self.enrolled(api, "pk@example.com", authenticator)
            #expect(passkeyID.hasPrefix("pk_"))
            let login = try await Self.token(api, .login, email: "pk@example.com", totp: totp)
            let listed = try await api.bearer(.get, "/v1/passkeys", token: login).decode([PasskeyResponse].self)
            #expect(listed.map(\.passkeyId) == [passkeyID])
            #expect(listed.first?.status == .active && listed.first?.name == "Passkey")
            #expect(try await auditEvents(api, "passkey.registered").map(\.userID) == [userID])

            // A second SCA: the options exclude the passkey, and the same credential is refused.
            let settings = try await Self.token(api, .settingsChange, email: "pk@example.com", totp: totp)
            let options = try await Self.options(api, token: settings)
            #expect(options.excludeCredentials.map(\.id) == [authenticator.credentialIDText])
            let duplicate = try await Self.register(api, authenticator.register(options), token: settings)
            #expect(duplicate.status == 409)
            #expect(duplicate.problem?.code == .passkeyAlreadyRegistered)
            // Not spent by the refusal: another authenticator registers with the same token...
            let spare = try await Self.options(api, token: settings)
            let second = SoftwarePasskey()
            let created = try await Self.register(
                api, second.register(try await Self.options(api, token: settings)), token: settings, name: "Laptop")
            #expect(created.status == 201)
            #expect(try created.decode(PasskeyResponse.self).name == "Laptop")
            // ...once.
            let third = try await Self.register(api, SoftwarePasskey().register(spare), token: settings)
            #expect(third.status == 401)
            #expect(third.problem?.code == .tokenInvalid)
            #expect(try await api.services.store.passkeys(userID: userID).count == 2)
        }
    }

    @Test("a refused registration stores nothing: wrong origin, no user verification, another user's or a used or expired challenge")
    func refusals() async throws {
        // A short challenge lifetime, so the token outlives an expired registration challenge.
        try await TestServer({ Self.configure(&$0); $0.challengeLifetime = 60 }).run { api in
            let authenticator = SoftwarePasskey()
            let (_, totp, _) = try await Self.enrolled(api, "first@example.com", SoftwarePasskey())
            let otherID = try await api.createUser("second@example.com")
            let otherTOTP = try await api.enrollTOTP(otherID)
            let settings = try await Self.token(api, .settingsChange, email: "second@example.com", totp: otherTOTP)

            authenticator.origin = "https://evil.example"
            let wrongOrigin = try await Self.register(api, authenticator.register(try await Self.options(api, token: settings)), token: settings)
            #expect(wrongOrigin.status == 400)
            #expect(wrongOrigin.problem?.code == .passkeyInvalid)
            authenticator.origin = "http://localhost:8080"

            let noUV = try await Self.register(
                api, authenticator.register(try await Self.options(api, token: settings), userVerified: false), token: settings)
            #expect(noUV.problem?.code == .passkeyInvalid)

            // The first user's challenge is not the second's.
            let firstSettings = try await Self.token(api, .settingsChange, email: "first@example.com", totp: totp)
            let stolen = try await Self.register(api, authenticator.register(try await Self.options(api, token: firstSettings)), token: settings)
            #expect(stolen.problem?.code == .passkeyChallengeInvalid)

            // Expired.
            let old = try await Self.options(api, token: settings)
            api.clock.advance(by: TimeInterval(api.services.configuration.challengeLifetime))
            #expect(try await Self.register(api, authenticator.register(old), token: settings).problem?.code == .passkeyChallengeInvalid)
            #expect(try await api.services.store.passkeys(userID: otherID).isEmpty)
            let rejected = try await auditEvents(api, "passkey.registered").filter { $0.outcome == "rejected" }
            #expect(rejected.count == 4)
            #expect(rejected.first?.details["reason"] == "originNotAllowed")

            // A used challenge: the same options redeemed twice (with two tokens) register once.
            let fresh = try await Self.token(api, .settingsChange, email: "second@example.com", totp: otherTOTP)
            let options = try await Self.options(api, token: fresh)
            #expect(try await Self.register(api, authenticator.register(options), token: fresh).status == 201)
            let later = try await Self.token(api, .settingsChange, email: "second@example.com", totp: otherTOTP)
            let reused = try await Self.register(api, SoftwarePasskey().register(options), token: later)
            #expect(reused.problem?.code == .passkeyChallengeInvalid)
            #expect(try await api.services.store.passkeys(userID: otherID).count == 1)
        }
    }

    @Test("the per-user limit holds")
    func limit() async throws {
        try await TestServer({ Self.configure(&$0); $0.maxPasskeysPerUser = 1 }).run { api in
            let (_, totp, _) = try await Self.enrolled(api, "pk@example.com", SoftwarePasskey())
            let settings = try await Self.token(api, .settingsChange, email: "pk@example.com", totp: totp)
            let refused = try await Self.register(api, SoftwarePasskey().register(try await Self.options(api, token: settings)), token: settings)
            #expect(refused.status == 409)
            #expect(refused.problem?.code == .passkeyLimitReached)
        }
    }

    @Test("the owner and operators delete a passkey; another user cannot; audited")
    func delete() async throws {
        try await TestServer(Self.configure).run { api in
            let (userID, totp, passkeyID) = try await Self.enrolled(api, "owner@example.com", SoftwarePasskey())
            let (_, otherTOTP, otherPasskey) = try await Self.enrolled(api, "other@example.com", SoftwarePasskey())
            let login = try await Self.token(api, .login, email: "owner@example.com", totp: totp)
            let foreign = try await api.bearer(.delete, "/v1/passkeys/\(otherPasskey)", token: login)
            #expect(foreign.status == 404)
            #expect(foreign.problem?.code == .passkeyNotFound)
            #expect(try await api.bearer(.delete, "/v1/passkeys/\(passkeyID)", token: login).status == 200)
            #expect(try await api.bearer(.delete, "/v1/passkeys/\(passkeyID)", token: login).status == 404)
            #expect(try await api.services.store.passkeys(userID: userID).isEmpty)

            let otherID = try #require(try await api.services.store.passkey(id: otherPasskey)?.userID)
            let adminList = try await api.send(.get, "/admin/v1/users/\(otherID)/passkeys", admin: true)
            #expect(try adminList.decode([PasskeyResponse].self).map(\.passkeyId) == [otherPasskey])
            #expect(try await api.send(.get, "/admin/v1/users/\(otherID)/passkeys").status == 401)
            #expect(try await api.send(.delete, "/admin/v1/passkeys/\(otherPasskey)", admin: true).status == 200)
            #expect(try await api.services.store.passkey(id: otherPasskey) == nil)
            let removed = try await auditEvents(api, "passkey.removed")
            #expect(removed.map(\.actor) == ["client", "admin"])
            _ = otherTOTP
        }
    }

    @Test("without webauthn.rpId and origins, passkeys are off; without a token the answer is still 401")
    func off() async throws {
        try await TestServer().run { api in
            let anonymous = try await api.send(.post, "/v1/passkeys/registration/options")
            #expect(anonymous.status == 401)
            #expect(anonymous.problem?.code == .unauthorized)
            let userID = try await api.createUser("pk@example.com")
            let totp = try await api.enrollTOTP(userID)
            let settings = try await Self.token(api, .settingsChange, email: "pk@example.com", totp: totp)
            let response = try await api.bearer(.post, "/v1/passkeys/registration/options", token: settings)
            #expect(response.status == 404)
            #expect(response.problem?.code == .passkeyUnavailable)
        }
    }

    @Test("webauthn settings: rpId and origins together, origins exact, the second category knowledge or inherence")
    func settings() throws {
        var configuration = ServerConfiguration()
        configuration.webauthnRPID = "bank.example"
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.webauthnOrigins = ["https://bank.example/login"]
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.webauthnOrigins = ["https://bank.example", "http://localhost:8080"]
        try configuration.validate()
        #expect(configuration.relyingParty?.origins == ["https://bank.example", "http://localhost:8080"])
        configuration.webauthnUserVerifiedCategory = .possession
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        let loaded = try ConfigurationLoader().load(
            file: nil,
            environment: [
                "SCA_WEBAUTHN_RP_ID": "localhost", "SCA_WEBAUTHN_ORIGINS": "http://localhost:8080, http://localhost:9090",
                "SCA_WEBAUTHN_ATTESTATION": "direct", "SCA_WEBAUTHN_USER_VERIFIED_CATEGORY": "knowledge",
            ],
            flags: [:])
        #expect(loaded.webauthnOrigins == ["http://localhost:8080", "http://localhost:9090"])
        #expect(loaded.relyingParty?.attestation == .direct)
        #expect(loaded.webauthnUserVerifiedCategory == .knowledge)
    }
}
