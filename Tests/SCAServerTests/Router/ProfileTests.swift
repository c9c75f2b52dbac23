import Foundation
import SCACore
import SCAEngine
import Testing

/// Names and custom attributes, `tokenClaims` and `GET /v1/me`.
@Suite("User profiles and token claims")
struct ProfileTests {
    static func putProfile(_ api: APIClient, _ userID: String, _ request: ProfileRequest) async throws -> APIResponse {
        try await api.send(.put, "/admin/v1/users/\(userID)/profile", body: try WireJSON.encoder().encode(request), admin: true)
    }

    @Test("attributes go into access tokens and introspection exactly as tokenClaims lists them")
    func attributesInTokensAsConfigured() async throws {
        try await TestServer { $0.tokenClaims = ["name", "tier", "email"] }.run { api in
            let userID = try await api.createUser("ada@example.com", phone: "+33612345601")
            let totp = try await api.enrollTOTP(userID)
            let set = try await Self.putProfile(
                api, userID, ProfileRequest(name: "Ada Lovelace", attributes: ["tier": "gold", "internal_note": "vip"]))
            #expect(set.status == 200)
            let token = try #require(try await api.logIn("ada@example.com", totp: totp).accessToken)
            let claims = try jwtClaims(token)
            #expect(claims["name"] as? String == "Ada Lovelace")
            #expect(claims["tier"] as? String == "gold")
            #expect(claims["email"] as? String == "ada@example.com")
            #expect(claims["internal_note"] == nil)
            #expect(claims["phone"] == nil)
            #expect(claims["sub"] as? String == userID)
            let introspected = try await api.post("/v1/tokens/introspect", IntrospectRequest(token: token)).json
            #expect(introspected["active"] as? Bool == true)
            #expect(introspected["name"] as? String == "Ada Lovelace")
            #expect(introspected["tier"] as? String == "gold")
            #expect(introspected["internal_note"] == nil)
        }
        // None by default: a token carries no personal data unless asked.
        try await TestServer().run { api in
            let userID = try await api.createUser("plain@example.com")
            let totp = try await api.enrollTOTP(userID)
            #expect(try await Self.putProfile(api, userID, ProfileRequest(name: "Plain", attributes: ["tier": "x"])).status == 200)
            let claims = try jwtClaims(try #require(try await api.logIn("plain@example.com", totp: totp).accessToken))
            #expect(claims["name"] == nil)
            #expect(claims["tier"] == nil)
            #expect(claims["email"] == nil)
        }
    }

    @Test("bad names and attributes are refused with a clear problem and change nothing")
    func badAttributesRefused() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("strict@example.com")
            #expect(try await Self.putProfile(api, userID, ProfileRequest(name: "Good", attributes: ["tier": "gold"])).status == 200)
            let tooMany = Dictionary(uniqueKeysWithValues: (0..<21).map { ("k\($0)", "v") })
            let tooBig = Dictionary(uniqueKeysWithValues: (0..<5).map { ("k\($0)", String(repeating: "x", count: 1_000)) })
            let cases: [(ProfileRequest, String)] = [
                (ProfileRequest(attributes: ["Tier": "gold"]), "key \"Tier\""),
                (ProfileRequest(attributes: ["1tier": "gold"]), "key \"1tier\""),
                (ProfileRequest(attributes: [String(repeating: "a", count: 33): "x"]), "must match"),
                (ProfileRequest(attributes: ["name": "x"]), "profile field"),
                (ProfileRequest(attributes: tooMany), "at most 20 keys"),
                (ProfileRequest(attributes: tooBig), "4096 bytes"),
                (ProfileRequest(attributes: ["tier": "gold\u{07}"]), "attributes.tier"),
                (ProfileRequest(attributes: ["tier": "\u{202E}dlog"]), "attributes.tier"),
                (ProfileRequest(attributes: ["tier": ""]), "attributes.tier"),
                (ProfileRequest(name: "Eve\u{200B}"), "name"),
                (ProfileRequest(), "nothing to change"),
            ]
            for (request, reason) in cases {
                let refused = try await Self.putProfile(api, userID, request)
                #expect(refused.status == 400, "\(reason)")
                #expect(refused.problem?.code == .requestInvalid)
                #expect(refused.problem?.detail?.contains(reason) == true, "\(refused.problem?.detail ?? "") / \(reason)")
            }
            let user = try #require(try await api.services.users.find(userID))
            #expect(user.profile.name == "Good")
            #expect(user.profile.attributes == ["tier": "gold"])
        }
    }

    @Test("a tokenClaims name that a token already uses or JWT registers is refused at start-up")
    func reservedClaimNamesRefused() throws {
        let loader = ConfigurationLoader()
        for name in ["sub", "exp", "iat", "acr", "amr", "roles", "permissions", "auth_time", "nbf", "Tier", "a-b"] {
            #expect(throws: ConfigurationError.self, "\(name)") {
                try loader.load(file: nil, environment: [:], flags: ["tokenClaims": "name,\(name)"])
            }
        }
        #expect(try loader.load(file: nil, environment: [:], flags: ["tokenClaims": "name, tier"]).tokenClaims == ["name", "tier"])
        #expect(try loader.load(file: nil, environment: [:], flags: [:]).tokenClaims.isEmpty)
    }

    @Test("GET /v1/me: the user's own profile; PUT /v1/me/profile with a settings_change token, once")
    func ownProfile() async throws {
        try await TestServer { $0.roles["support"] = ["users:read"] }.run { api in
            let userID = try await api.createUser("me@example.com", phone: "+33612345602")
            _ = try await api.send(
                .put, "/admin/v1/users/\(userID)/roles", body: try WireJSON.encoder().encode(SetRolesRequest(roles: ["support"])),
                admin: true)
            let totp = try await api.enrollTOTP(userID)
            let login = try #require(try await api.logIn("me@example.com", totp: totp).accessToken)
            let me = try await api.send(.get, "/v1/me", bearer: login)
            #expect(me.status == 200)
            let profile = try me.decode(ProfileResponse.self)
            #expect(profile.userId == userID)
            #expect(profile.email == "me@example.com")
            #expect(profile.phone == "+33612345602")
            #expect(profile.roles == ["support"])
            #expect(profile.permissions == ["users:read"])
            #expect(profile.methods == [.password, .totp, .smsOTP, .emailOTP])
            #expect(profile.devices == 0)

            let change = try WireJSON.encoder().encode(ProfileRequest(name: "Me Myself", attributes: ["locale": "fr_FR"]))
            let withLogin = try await api.send(.put, "/v1/me/profile", bearer: login, body: change)
            #expect(withLogin.status == 403)
            api.clock.advance(by: 30)
            let challenge = try await api.startChallenge(.settingsChange, email: "me@example.com")
            #expect(try await api.prove(challenge.challengeId, .password, "correct horse battery").status == 200)
            let settings = try #require(
                try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now())).decode(ProofResponse.self).accessToken)
            let changed = try await api.send(.put, "/v1/me/profile", bearer: settings, body: change)
            #expect(changed.status == 200)
            #expect(try changed.decode(ProfileResponse.self).attributes == ["locale": "fr_FR"])
            #expect(try await api.send(.put, "/v1/me/profile", bearer: settings, body: change).status == 401)
            let after = try await api.send(.get, "/v1/me", bearer: login).decode(ProfileResponse.self)
            #expect(after.name == "Me Myself")
        }
    }
}
