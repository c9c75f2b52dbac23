import Foundation
import SCACore
import Testing

/// Binding a device needs a dedicated SCA (RTS art. 24): `POST /v1/activations`
/// takes a `device_activation` (or `settings_change`) token, once; a `login` token is refused.
@Suite("Activation needs its own SCA")
struct ActivationSCATests {
    /// Password and TOTP on a new challenge for `operation`; returns the access token.
    func token(_ api: APIClient, _ operation: OperationKind, email: String, totp: TOTP) async throws -> String {
        api.clock.advance(by: 30)  // a TOTP step is accepted once
        let challenge = try await api.startChallenge(operation, email: email)
        #expect(try await api.prove(challenge.challengeId, .password, "correct horse battery").status == 200)
        let done = try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now()))
        return try #require(try done.decode(ProofResponse.self).accessToken)
    }

    func issuedCodes(_ api: APIClient) async throws -> Int {
        try await api.services.store.auditEntries(after: 0, limit: 1_000)
            .filter { $0.draft.event == "device.activation_code_issued" }.count
    }

    @Test("a login token is refused, writes nothing and is not spent")
    func loginTokenRefused() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("stolen@example.com")
            let totp = try await api.enrollTOTP(userID)
            let login = try await token(api, .login, email: "stolen@example.com", totp: totp)

            let refused = try await api.bearer(.post, "/v1/activations", token: login)

            #expect(refused.status == 403)
            #expect(refused.problem?.code == .forbidden)
            #expect(refused.problem?.detail?.contains("device_activation") == true, "\(refused.problem?.detail ?? "")")
            #expect(try await issuedCodes(api) == 0)
            // Refused before it was consumed: the session's token still serves its own routes.
            #expect(try await api.bearer(.get, "/v1/devices", token: login).status == 200)
            // Other operations' tokens are refused the same way.
            let accountInfo = try await token(api, .accountInfo, email: "stolen@example.com", totp: totp)
            #expect(try await api.bearer(.post, "/v1/activations", token: accountInfo).status == 403)
            #expect(try await issuedCodes(api) == 0)
        }
    }

    @Test("a device_activation token issues one code; its second use is refused")
    func deviceActivationTokenOnce() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("owner@example.com")
            let totp = try await api.enrollTOTP(userID)
            let activation = try await token(api, .deviceActivation, email: "owner@example.com", totp: totp)

            let issued = try await api.bearer(.post, "/v1/activations", token: activation)
            #expect(issued.status == 201)
            let code = try issued.decode(ActivationCodeResponse.self).activationCode
            let reused = try await api.bearer(.post, "/v1/activations", token: activation)

            #expect(reused.status == 401)
            #expect(reused.problem?.code == .tokenInvalid)
            #expect(reused.problem?.detail?.contains("issued an activation code already") == true)
            #expect(try await issuedCodes(api) == 1)
            // The one code binds a device.
            let registered = try await api.post("/v1/devices", try TestDevice().registration(code: code))
            #expect(registered.status == 201)
            #expect(try registered.decode(RegisteredDeviceResponse.self).userId == userID)
        }
    }

    @Test("a settings_change token serves too, once")
    func settingsChangeTokenOnce() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("settings@example.com")
            let totp = try await api.enrollTOTP(userID)
            let settings = try await token(api, .settingsChange, email: "settings@example.com", totp: totp)

            #expect(try await api.bearer(.post, "/v1/activations", token: settings).status == 201)
            #expect(try await api.bearer(.post, "/v1/activations", token: settings).problem?.code == .tokenInvalid)
            #expect(try await issuedCodes(api) == 1)
        }
    }
}
