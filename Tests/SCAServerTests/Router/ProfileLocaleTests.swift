import Foundation
import SCACore
import SCAEngine
import SCALocalization
import Testing

/// The language and time zone stored on the user (`locale`, `zoneinfo`): set at sign-up, by the
/// user and by an operator, shown by `GET /v1/me`, read by the pages.
@Suite("Language and time zone on the profile")
struct ProfileLocaleTests {
    static func putProfile(_ api: APIClient, _ userID: String, _ request: ProfileRequest) async throws -> APIResponse {
        try await LocalizedMessageTests.setProfile(api, userID, request)
    }

    @Test("a sign-up with a locale creates the user with its language; without one, with none")
    func signUpStoresLanguage() async throws {
        try await TestServer { $0.signUp.mode = .email }.run { api in
            for (email, locale, stored) in [("ana@example.com", "fr-CA", "fr"), ("ben@example.com", nil, nil)] as [(String, String?, String?)] {
                let started = try await api.post("/v1/signup-or-in", SignUpOrInRequest(email: email, locale: locale))
                #expect(started.status == 201)
                let challenge = try started.decode(ChallengeResponse.self)
                #expect(try await api.sendCode(challenge.challengeId, .emailOTP).status == 202)
                await api.services.messages.waitUntilIdle()
                let proof = try await api.prove(challenge.challengeId, .emailOTP, try api.lastCode(sentTo: email))
                #expect(try proof.decode(ProofResponse.self).status == .enrolment)
                let user = try #require(try await api.services.users.find(email))
                #expect(user.profile.locale == stored, "\(email)")
                #expect(try await api.services.users.language(ofUser: user.id) == stored.flatMap(Language.init(code:)))
            }
        }
    }

    @Test("a sign-up naming a language the server does not write in is refused before anything is opened")
    func signUpRefusesUnknownLanguage() async throws {
        try await TestServer { $0.signUp.mode = .email }.run { api in
            let before = try await api.services.store.auditEntries(after: 0, limit: 1_000).count
            for locale in ["tlh", "", "de-", "ja-JP"] {
                let refused = try await api.post("/v1/signup-or-in", SignUpOrInRequest(email: "new@example.com", locale: locale))
                #expect(refused.status == 400, "\(locale)")
                #expect(refused.problem?.code == .requestInvalid)
                #expect(refused.problem?.detail?.hasPrefix("locale") == true, "\(refused.problem?.detail ?? "")")
            }
            #expect(try await api.services.store.auditEntries(after: 0, limit: 1_000).count == before, "no challenge was opened")
            #expect(try api.services.outbox?.messages().isEmpty == true)
        }
    }

    @Test("an operator sets and clears them; an absent one is kept; bad ones are refused and change nothing")
    func operatorSetsLanguageAndZone() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("op-set@example.com")
            let set = try await Self.putProfile(api, userID, ProfileRequest(locale: "NL-be", zoneinfo: "Europe/Brussels"))
            #expect(set.status == 200)
            let shown = try set.decode(ProfileResponse.self)
            #expect(shown.locale == "nl")
            #expect(shown.zoneinfo == "Europe/Brussels")
            #expect(try await api.services.users.language(ofUser: userID) == .dutch)
            #expect(try await api.services.users.timeZone(ofUser: userID)?.identifier == "Europe/Brussels")

            // Another field changed: language and zone are kept.
            let named = try await Self.putProfile(api, userID, ProfileRequest(name: "Noor")).decode(ProfileResponse.self)
            #expect(named.locale == "nl" && named.zoneinfo == "Europe/Brussels" && named.name == "Noor")

            for (request, field) in [
                (ProfileRequest(zoneinfo: "Mars/Olympus_Mons"), "zoneinfo"), (ProfileRequest(zoneinfo: "CET"), "zoneinfo"),
                (ProfileRequest(zoneinfo: "europe/berlin"), "zoneinfo"), (ProfileRequest(zoneinfo: "GMT+1"), "zoneinfo"),
                (ProfileRequest(locale: "en-GB", zoneinfo: "Nowhere"), "zoneinfo"), (ProfileRequest(locale: "zz"), "locale"),
            ] {
                let refused = try await Self.putProfile(api, userID, request)
                #expect(refused.status == 400, "\(request)")
                #expect(refused.problem?.code == .requestInvalid)
                #expect(refused.problem?.detail?.hasPrefix(field) == true, "\(refused.problem?.detail ?? "")")
            }
            let unchanged = try #require(try await api.services.users.find(userID)).profile
            #expect(unchanged.locale == "nl" && unchanged.zoneinfo == "Europe/Brussels")

            for zone in ["UTC", "Asia/Kolkata", "America/Argentina/Buenos_Aires", "Etc/UTC"] {
                let set = try await Self.putProfile(api, userID, ProfileRequest(zoneinfo: zone))
                #expect(try set.decode(ProfileResponse.self).zoneinfo == zone)
            }
            let cleared = try await Self.putProfile(api, userID, ProfileRequest(locale: "", zoneinfo: "")).decode(ProfileResponse.self)
            #expect(cleared.locale == nil && cleared.zoneinfo == nil && cleared.name == "Noor")
            #expect(try await api.services.users.language(ofUser: userID) == nil)
            #expect(try await api.services.users.timeZone(ofUser: userID) == nil)
            #expect(try await api.services.users.language(ofUser: "usr_nobody") == nil)
        }
    }

    @Test("the user sets them with a settings_change token and reads them back from GET /v1/me")
    func userSetsOwnLanguage() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("self@example.com", phone: "+33612345741")
            let totp = try await api.enrollTOTP(userID)
            let login = try #require(try await api.logIn("self@example.com", totp: totp).accessToken)
            let before = try await api.send(.get, "/v1/me", bearer: login).decode(ProfileResponse.self)
            #expect(before.locale == nil && before.zoneinfo == nil)
            #expect(try await api.send(.get, "/v1/me", bearer: login).json["locale"] == nil, "absent, not null")

            api.clock.advance(by: 30)
            let challenge = try await api.startChallenge(.settingsChange, email: "self@example.com")
            #expect(try await api.prove(challenge.challengeId, .password, "correct horse battery").status == 200)
            let settings = try #require(
                try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now())).decode(ProofResponse.self).accessToken)
            // A bad one is refused before the token is used.
            let bad = try WireJSON.encoder().encode(ProfileRequest(locale: "klingon"))
            #expect(try await api.send(.put, "/v1/me/profile", bearer: settings, body: bad).status == 400)
            let change = try WireJSON.encoder().encode(ProfileRequest(locale: "it-CH", zoneinfo: "Europe/Zurich"))
            let changed = try await api.send(.put, "/v1/me/profile", bearer: settings, body: change)
            #expect(changed.status == 200)

            let me = try await api.send(.get, "/v1/me", bearer: login).decode(ProfileResponse.self)
            #expect(me.locale == "it")
            #expect(me.zoneinfo == "Europe/Zurich")
            let trail = try await api.services.store.auditEntries(after: 0, limit: 1_000).map(\.draft)
            #expect(trail.contains { $0.event == "user.settings_changed" && $0.details["fields"] == "locale,zoneinfo" })
        }
    }
}
