import Foundation
import SCAClient
import SCAServer
import Testing

/// Activation, cold start with the device's keys, fallback and refusal.
@Suite struct DeviceTests {
    @Test func coldStartSignsWithBothKeysAndAsksNothing() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("ga@example.com")
            let client = server.client()
            let binding = try await server.activate(client, for: userID)
            #expect(binding.userId == userID)
            #expect(binding.hasBiometryKey)
            let collector = ScriptedCollector(.init())

            let tokens = try await client.coldStart(using: collector)

            #expect(tokens.amr == [.deviceKey, .biometricKey])
            #expect(collector.events == [.biometricGate("Sign in")])
            #expect(try await client.introspect(try await client.validAccessToken()).active)
            #expect(try await client.deviceStatus().status == .active)
        }
    }

    @Test func failedBiometricGateFallsBackToKnowledge() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("ha@example.com")
            let client = server.client()
            _ = try await server.activate(client, for: userID)
            let collector = ScriptedCollector(
                .init(choices: [.password], secrets: [.password: [Harness.password]], passesBiometricGate: false))

            let tokens = try await client.coldStart(using: collector)

            #expect(tokens.amr == [.deviceKey, .password])
            #expect(collector.events.first == .biometricGate("Sign in"))
            #expect(collector.events.contains(.chooseMethod([.password])))
        }
    }

    @Test func wrongDeviceKeyFallsBackInsteadOfSigningAgain() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("pa@example.com")
            let client = server.client(keyStore: MismatchedKeyStore(base: FileDeviceKeyStore(directory: server.keyDirectory())))
            _ = try await server.activate(client, for: userID)
            let collector = ScriptedCollector(
                .init(
                    choices: [.password, .emailOTP], secrets: [.password: [Harness.password]],
                    code: { _, _ in try server.lastCode(sentTo: "pa@example.com") }))

            let tokens = try await client.coldStart(using: collector)

            // Deferred verdict: the signatures alone failed, so the loop asked the user instead of
            // signing again (which would have cost another attempt without anyone's knowledge).
            #expect(tokens.amr == [.password, .emailOTP])
            #expect(collector.events.filter { if case .biometricGate = $0 { true } else { false } }.count == 1)
            #expect(
                collector.secretAttempts(.password) == [
                    AttemptContext(number: 1, remainingAttempts: 4, previousFailure: .authenticationFailed)
                ])
            #expect(try await client.deviceStatus().status == .active)
        }
    }

    @Test func removedDeviceIsRefused() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("ia@example.com")
            let client = server.client()
            let binding = try await server.activate(client, for: userID)
            _ = try await server.services.devices.setStatus(of: binding.deviceId, to: .removed)

            let error = await #expect(throws: SCAClientError.self) { try await client.coldStart(using: ScriptedCollector(.init())) }

            #expect(error == .deviceRefused(.deviceRemoved))
            #expect(error?.problemCode == .deviceRemoved)
            #expect(error?.description.hasPrefix("device.removed:") == true)
            #expect(error?.description.contains("activate it again") == true)
            #expect(try await client.deviceStatus().status == .removed)
        }
    }

    @Test func coldStartWithoutBindingIsRefusedLocally() async throws {
        try await SDKTestServer().run { server in
            await #expect(throws: SCAClientError.deviceNotActivated) {
                try await server.client().coldStart(using: ScriptedCollector(.init()))
            }
        }
    }

    @Test func signedInUserActivatesAnotherDeviceAndRemovesIt() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("ja@example.com")
            let totp = try await server.enrollTOTP(userID)
            let laptop = server.client()
            _ = try await laptop.logIn(
                email: "ja@example.com", using: ScriptedCollector(.init(choices: [.totp], code: { _, _ in server.nextCode(totp) })),
                prefill: [.password: Harness.password])

            let issued = try await laptop.requestActivationCode()
            let phone = server.client()
            let binding = try await phone.activateDevice(code: issued.activationCode.lowercased(), name: "Ana's phone")

            // The activation consumed the access token: the SDK refreshes for the next call.
            let devices = try await laptop.devices()
            #expect(devices.map(\.deviceId) == [binding.deviceId])
            #expect(devices.first?.name == "Ana's phone")
            let removed = try await laptop.removeDevice(binding.deviceId)
            #expect(removed.status == .removed)
            #expect(try await phone.deviceStatus().status == .removed)
        }
    }

    @Test func mistypedActivationCodeIsRefusedBeforeTheServer() async throws {
        try await SDKTestServer().run { server in
            let client = server.client()
            let error = await #expect(throws: SCAClientError.self) {
                try await client.activateDevice(code: "AAAAA-AAAAA-AAAAA-AAAAA", name: "phone")
            }
            #expect(error?.problemCode == .activationCodeInvalid)
        }
    }
}
