import Foundation
import SCAClient
import SCAEngine
import Testing

/// Logins with typed factors, through the SDK's loop against the real server over HTTP.
@Suite struct LoginTests {
    @Test func passwordPrefilledAndTOTPLogIn() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("ana@example.com")
            let totp = try await server.enrollTOTP(userID)
            let collector = ScriptedCollector(.init(choices: [.totp], code: { _, _ in server.nextCode(totp) }))
            let client = server.client()

            let tokens = try await client.logIn(
                email: "ana@example.com", using: collector, prefill: [.password: Harness.password])

            #expect(tokens.amr == [.password, .totp])
            #expect(tokens.operation == .login)
            #expect(tokens.refreshToken != nil)
            // The password was typed beforehand: the user is never asked for it again.
            #expect(collector.secretsAsked.isEmpty)
            #expect(!collector.events.contains { $0 == .chooseMethod([.password, .totp, .emailOTP]) })
            #expect(collector.codeAttempts(.totp) == [AttemptContext(number: 1)])
            // The session is stored and alive.
            #expect(try await client.validAccessToken() == tokens.accessToken)
            let introspection = try await client.introspect(tokens.accessToken, operation: .login)
            #expect(introspection.active)
            #expect(introspection.sub == userID)
        }
    }

    @Test func passwordAndSMSCodeLogIn() async throws {
        try await SDKTestServer().run { server in
            _ = try await server.createUser("bo@example.com", phone: Harness.phone)
            let collector = ScriptedCollector(
                .init(
                    choices: [.password, .smsOTP], secrets: [.password: [Harness.password]],
                    code: { method, _ in
                        #expect(method == .smsOTP)
                        return try server.lastCode(sentTo: Harness.phone)
                    }))

            let tokens = try await server.client().logIn(email: "bo@example.com", using: collector)

            #expect(tokens.amr == [.password, .smsOTP])
            #expect(collector.events.first == .chooseMethod([.password, .smsOTP, .emailOTP]))
            #expect(collector.events.contains(.chooseMethod([.smsOTP, .emailOTP])))
            #expect(collector.events.contains(.code(.smsOTP, delivered: true, AttemptContext(number: 1))))
        }
    }

    @Test func immediateVerdictAsksTheWrongCodeAgain() async throws {
        let server = try await SDKTestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }
        try await server.run { server in
            let userID = try await server.createUser("cy@example.com")
            let totp = try await server.enrollTOTP(userID)
            let collector = ScriptedCollector(
                .init(
                    choices: [.totp],
                    code: { _, attempt in
                        let right = server.nextCode(totp)
                        guard attempt.number > 1 else { return right == "000000" ? "111111" : "000000" }
                        return right
                    }))

            let tokens = try await server.client().logIn(
                email: "cy@example.com", using: collector, prefill: [.password: Harness.password])

            #expect(tokens.amr == [.password, .totp])
            #expect(
                collector.codeAttempts(.totp) == [
                    AttemptContext(number: 1),
                    AttemptContext(number: 2, remainingAttempts: 4, previousFailure: .proofRejected),
                ])
            // Asked again without choosing again.
            #expect(collector.events.filter { if case .chooseMethod = $0 { true } else { false } }.count == 1)
        }
    }

    @Test func deferredVerdictCollectsEverythingAgain() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("di@example.com")
            let totp = try await server.enrollTOTP(userID)
            let collector = ScriptedCollector(
                .init(
                    choices: [.password, .totp, .password, .totp],
                    secrets: [.password: ["not the password", Harness.password]],
                    code: { _, _ in server.nextCode(totp) }))

            let tokens = try await server.client().logIn(email: "di@example.com", using: collector)

            #expect(tokens.amr == [.password, .totp])
            let again = AttemptContext(number: 2, remainingAttempts: 4, previousFailure: .authenticationFailed)
            #expect(collector.secretAttempts(.password) == [AttemptContext(number: 1), again])
            #expect(collector.codeAttempts(.totp) == [AttemptContext(number: 1), again])
        }
    }

    @Test func lockedUserGetsTheWaitFromRetryAfter() async throws {
        let server = try await SDKTestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }
        try await server.run { server in
            _ = try await server.createUser("ed@example.com")
            let collector = ScriptedCollector(
                .init(choices: [.password], secrets: [.password: Array(repeating: "wrong password", count: 6)]))

            await #expect(throws: SCAClientError.locked(retryAfter: 900)) {
                try await server.client().logIn(email: "ed@example.com", using: collector)
            }
            #expect(collector.secretAttempts(.password).map(\.remainingAttempts) == [nil, 4, 3, 2, 1, 0])
        }
    }

    @Test func cancellingInTheCollectorCancelsTheChallenge() async throws {
        try await SDKTestServer().run { server in
            _ = try await server.createUser("fa@example.com")
            let client = server.client()
            let collector = ScriptedCollector(.init(choices: [.password], cancelsAt: .password))
            let challenge = try await client.startChallenge(for: .login, user: UserReference(email: "fa@example.com"))

            await #expect(throws: SCAClientError.cancelled) {
                try await client.authenticate(challenge: challenge, using: collector)
            }
            #expect(try await server.state(of: challenge.challengeId) == .cancelled)
            await #expect(throws: SCAClientError.notSignedIn) { try await client.validAccessToken() }
        }
    }
}
