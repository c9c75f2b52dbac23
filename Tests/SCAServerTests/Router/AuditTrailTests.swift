import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import SCACore
import SCAEngine
import SCAStorage
import Testing

@Suite("Audit trail: every security event, hash-chained")
struct AuditTrailTests {
    static let acme = Transaction(
        amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR76 3000 6000 0112 3456 7890 189"))

    @Test("the client address comes from the last entry of the trusted proxy header, never from earlier ones")
    func clientAddressFromTrustedProxy() async throws {
        try await TestServer { $0.trustedProxyHeader = "X-Forwarded-For" }.run { api in
            _ = try await api.createUser("proxy@example.com")
            let body = try WireJSON.encoder().encode(
                CreateChallengeRequest(operation: .login, user: UserReference(email: "proxy@example.com")))
            // The client wrote the first address itself; our proxy appended the last one.
            let response = try await api.client.execute(
                uri: "/v1/challenges", method: .post,
                headers: [.contentType: "application/json", HTTPField.Name("X-Forwarded-For")!: "203.0.113.9, 198.51.100.7"],
                body: ByteBuffer(bytes: body))
            #expect(response.status == .created)
            let created = try #require(try await Self.entries(api).last { $0.draft.event == "challenge.created" })
            #expect(created.draft.clientAddress == "198.51.100.7")
            #expect(created.draft.requestID != nil)
        }
    }

    @Test("login with password and TOTP: admin set-up, challenge, proofs, tokens, completion; no secret recorded")
    func loginFlow() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("audit@example.com")
            let totp = try await api.enrollTOTP(userID)
            let tokens = try await api.logIn("audit@example.com", totp: totp)

            let entries = try await Self.entries(api)
            #expect(entries.map(\.draft.event) == [
                "admin.user_created", "admin.totp_enrolled", "alert.sent", "challenge.created", "proof.accepted",
                "proof.accepted", "token.issued", "challenge.completed",
            ])
            #expect(entries[0].draft.actor == "admin")
            #expect(entries[0].draft.details["methods"] == "password")
            // The user was told of the new app: which alert and where, never its text.
            #expect(entries[2].draft.actor == "admin" && entries[2].draft.userID == userID)
            #expect(entries[2].draft.details == ["purpose": "security_alert", "alert": "totpEnrolled", "channels": "email"])
            #expect(entries[3...].allSatisfy { $0.draft.actor == "client" && $0.draft.userID == userID })
            #expect(entries.allSatisfy { $0.draft.requestID != nil }, "every entry names its request")
            #expect(entries[4].draft.details["method"] == "password" && entries[5].draft.details["method"] == "totp")
            #expect(entries[4].draft.outcome == "accepted")
            let challengeID = try #require(entries[3].draft.challengeID)
            #expect(entries[3...].allSatisfy { $0.draft.challengeID == challengeID })
            #expect(entries[6].draft.sessionID != nil)
            #expect(entries[7].draft.details["operation"] == "login")

            let exported = entries.map { String(decoding: JCS.canonicalize($0.exportJSON), as: UTF8.self) }.joined()
            #expect(!exported.contains("correct horse battery"))
            #expect(!exported.contains(try #require(tokens.accessToken)))
            #expect(!exported.contains(try #require(tokens.refreshToken)))
        }
    }

    @Test("wrong proofs, the lockout they cause, and an operator's unblock")
    func failedProofsLockoutAndUnblock() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            let userID = try await api.createUser("lockaudit@example.com")
            let challenge = try await api.startChallenge(email: "lockaudit@example.com")
            for _ in 0..<5 { try await api.prove(challenge.challengeId, .password, "wrong password!") }
            #expect(try await api.send(.post, "/admin/v1/users/\(userID)/unblock", admin: true).status == 200)

            let events = try await Self.entries(api).map(\.draft)
            let rejected = events.filter { $0.event == "proof.rejected" }
            #expect(rejected.count == 5)
            #expect(rejected.allSatisfy { $0.outcome == "rejected" && $0.details["method"] == "password" && $0.userID == userID })
            let locked = try #require(events.first { $0.event == "user.locked" })
            #expect(locked.outcome == "temporary")
            #expect(locked.details["block"] == "1")
            let unblocked = try #require(events.last)
            #expect(unblocked.event == "admin.user_unblocked")
            #expect(unblocked.actor == "admin" && unblocked.userID == userID)
        }
    }

    @Test("a deferred verdict that fails is recorded as a failed challenge; cancel and expiry too")
    func failedCancelledExpired() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("deferred@example.com")
            let totp = try await api.enrollTOTP(userID)
            let first = try await api.startChallenge(email: "deferred@example.com")
            try await api.prove(first.challengeId, .password, "wrong password!")
            #expect(try await api.prove(first.challengeId, .totp, totp.code(at: api.clock.now())).status == 401)
            let second = try await api.startChallenge(email: "deferred@example.com")
            #expect(try await api.send(.delete, "/v1/challenges/\(second.challengeId)").status == 200)
            let third = try await api.startChallenge(email: "deferred@example.com")
            api.clock.advance(by: 3_600)
            _ = try await api.send(.get, "/v1/challenges/\(third.challengeId)")

            let events = try await Self.entries(api).map(\.draft)
            #expect(events.contains { $0.event == "challenge.failed" && $0.challengeID == first.challengeId })
            #expect(events.contains { $0.event == "challenge.cancelled" && $0.challengeID == second.challengeId })
            #expect(events.contains { $0.event == "challenge.expired" && $0.challengeID == third.challengeId })
        }
    }

    @Test("payment: the challenge and its token are recorded with the operation")
    func payment() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("payaudit@example.com")
            let totp = try await api.enrollTOTP(userID)
            let challenge = try await api.startChallenge(.payment, email: "payaudit@example.com", transaction: Self.acme)
            try await api.prove(challenge.challengeId, .password, "correct horse battery")
            #expect(try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now())).status == 200)

            let events = try await Self.entries(api).map(\.draft)
            let created = try #require(events.first { $0.event == "challenge.created" })
            #expect(created.details["operation"] == "payment")
            let issued = try #require(events.first { $0.event == "token.issued" })
            #expect(issued.details == ["operation": "payment", "refreshToken": "no"])
            #expect(events.last?.event == "challenge.completed")
            // The transaction itself (amount, payee) is not copied into the trail.
            #expect(!events.contains { $0.details.values.contains { $0.contains("ACME") || $0.contains("125.00") } })
        }
    }

    @Test("device activation and the operator's status changes")
    func deviceLifecycle() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("devaudit@example.com")
            var device = TestDevice()
            try await api.activate(&device, userID: userID)
            #expect(try await api.send(.post, "/admin/v1/devices/\(device.deviceID)/block", admin: true).status == 200)
            #expect(try await api.send(.post, "/admin/v1/devices/\(device.deviceID)/unblock", admin: true).status == 200)
            #expect(try await api.send(.delete, "/admin/v1/devices/\(device.deviceID)", admin: true).status == 200)

            let events = try await Self.entries(api).map(\.draft).filter { $0.event.hasPrefix("device.") }
            #expect(events.map(\.event) == [
                "device.activation_code_issued", "device.activated", "device.blocked", "device.unblocked", "device.removed",
            ])
            #expect(events.map(\.actor) == ["admin", "client", "admin", "admin", "admin"])
            #expect(events[1...].allSatisfy { $0.deviceID == device.deviceID && $0.userID == userID })
            #expect(events[2].details == ["from": "active", "to": "blocked"])
        }
    }

    @Test("the user's own change of password and phone (PATCH /v1/me) is recorded, naming the fields, never the values")
    func ownSettingsChange() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("selfaudit@example.com")
            let totp = try await api.enrollTOTP(userID)
            let challenge = try await api.startChallenge(.settingsChange, email: "selfaudit@example.com")
            try await api.prove(challenge.challengeId, .password, "correct horse battery")
            let token = try #require(
                try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now())).decode(ProofResponse.self)
                    .accessToken)
            let newPassword = "a brand new passphrase"
            let change = try WireJSON.encoder().encode(SettingsChangeRequest(password: newPassword, phone: "+33612345619"))
            #expect(try await api.bearer(.patch, "/v1/me", token: token, body: change).status == 200)

            let entries = try await Self.entries(api)
            // The password changes at once; the new number waits for the code sent to it.
            let changed = try #require(entries.last { $0.draft.event == "user.settings_changed" })
            #expect(changed.draft.actor == "client" && changed.draft.userID == userID)
            #expect(changed.draft.details == ["fields": "password"])
            #expect(entries.last?.draft.event == "contact.change_requested")
            #expect(entries.filter { $0.draft.event == "user.settings_changed" }.count == 1)
            let exported = entries.map { String(decoding: JCS.canonicalize($0.exportJSON), as: UTF8.self) }.joined()
            #expect(!exported.contains(newPassword))
            #expect(!exported.contains("+33612345619"))
        }
    }

    @Test("a device blocked by wrong signatures is recorded once, with the rejected proofs")
    func deviceBlockedByFailures() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            let userID = try await api.createUser("devfail@example.com")
            var device = TestDevice()
            try await api.activate(&device, userID: userID)
            let challenge = try await api.startChallenge(.login, userID: userID, device: device).decode(ChallengeResponse.self)
            let impostor = P256.Signing.PrivateKey()
            for _ in 0..<5 {
                try await api.prove(challenge.challengeId, try device.proof(.deviceKey, for: challenge, key: impostor))
            }
            let events = try await Self.entries(api).map(\.draft)
            let rejected = events.filter { $0.event == AuditEvent.proofRejected.rawValue }
            #expect(rejected.count == 5)
            #expect(rejected.allSatisfy { $0.details["method"] == "device_key" })
            let blocked = events.filter { $0.event == AuditEvent.deviceBlocked.rawValue }
            #expect(blocked.count == 1, "\(events.map { "\($0.event)/\($0.outcome)" })")
            #expect(blocked.first?.outcome == "failure_limit" && blocked.first?.deviceID == device.deviceID)
        }
    }

    @Test("refresh, reuse detection and revocation")
    func tokenLifecycle() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("tokaudit@example.com")
            let totp = try await api.enrollTOTP(userID)
            let tokens = try await api.logIn("tokaudit@example.com", totp: totp)
            let original = try #require(tokens.refreshToken)
            #expect(try await api.post("/v1/tokens/refresh", RefreshRequest(refreshToken: original)).status == 200)
            #expect(try await api.post("/v1/tokens/refresh", RefreshRequest(refreshToken: original)).status == 401)
            api.clock.advance(by: 31)  // a new TOTP step for the second login
            let again = try await api.logIn("tokaudit@example.com", totp: totp)
            #expect(try await api.post("/v1/tokens/revoke", RevokeRequest(token: try #require(again.accessToken))).status == 200)

            let events = try await Self.entries(api).map(\.draft).filter { $0.event.hasPrefix("token.") }
            #expect(events.map(\.event) == ["token.issued", "token.refreshed", "token.reuse_detected", "token.issued", "token.revoked"])
            #expect(events.allSatisfy { $0.userID == userID && $0.sessionID != nil })
            #expect(events[0].sessionID == events[2].sessionID, "reuse names the session it revoked")
            #expect(events[4].sessionID == events[3].sessionID)
        }
    }

    @Test("codes sent are recorded by channel, never with the code")
    func codeSent() async throws {
        try await TestServer().run { api in
            _ = try await api.createUser("sms@example.com", phone: "+33612345699")
            let challenge = try await api.startChallenge(email: "sms@example.com")
            #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
            let code = try api.lastCode(sentTo: "+33612345699")

            let sent = try #require(try await Self.entries(api).map(\.draft).first { $0.event == "code.sent" })
            #expect(sent.details == ["channel": "sms", "method": "sms_otp"])
            #expect(!sent.details.values.contains(code))
        }
    }

    @Test("outside a request (the CLI) the actor is cli and there is no request id")
    func cliActor() async throws {
        try await TestServer().run { api in
            let user = try await api.services.users.create(CreateUserRequest(email: "cli@example.com", password: "correct horse battery"))
            try await api.services.users.unblock(userID: user.id)
            let events = try await Self.entries(api).map(\.draft)
            #expect(events.map(\.event) == ["admin.user_created", "admin.user_unblocked"])
            #expect(events.allSatisfy { $0.actor == "cli" && $0.requestID == nil && $0.clientAddress == nil })
        }
    }

    /// Every entry of the server's trail, after checking that the chain is intact.
    static func entries(_ api: APIClient) async throws -> [AuditEntry] {
        let entries = try await api.services.store.auditEntries(after: 0, limit: 10_000)
        #expect(AuditChainVerifier.verify(entries) == nil)
        return entries
    }
}
