import Foundation
import SCAClient
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

            #expect(error?.code == .deviceRefused)
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

            // Binding a device needs its own SCA: the SDK runs a device_activation challenge for
            // the signed-in user, with typed factors, before asking for the code.
            let collector = ScriptedCollector(.init(choices: [.totp], code: { _, _ in server.nextCode(totp) }))
            let issued = try await laptop.requestActivationCode(using: collector, prefill: [.password: Harness.password])
            #expect(collector.codeAttempts(.totp).count == 1, "the user was asked for a second factor")
            let phone = server.client()
            let binding = try await phone.activateDevice(code: issued.activationCode.lowercased(), name: "Ana's phone")

            // The session's login token was not spent on it.
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

    // MARK: Activation needs its own SCA (RTS art. 24), and keeps the old binding

    @Test func boundDeviceApprovesAnotherWithItsKeysOncePerCode() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("ka@example.com")
            let phone = server.client()
            _ = try await server.activate(phone, for: userID)
            let collector = ScriptedCollector(.init())

            // No session at all: the bound device's keys are the device_activation SCA.
            let first = try await phone.requestActivationCode(using: collector)
            let second = try await phone.requestActivationCode(using: collector)

            #expect(first.activationCode != second.activationCode)
            #expect(collector.events == [.biometricGate("Approve activating a new device"), .biometricGate("Approve activating a new device")])
            let tablet = try await server.client().activateDevice(code: first.activationCode, name: "Tablet")
            #expect(tablet.userId == userID)
        }
    }

    @Test func loginTokenAloneCannotIssueACode() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("la@example.com")
            let totp = try await server.enrollTOTP(userID)
            let laptop = server.client()
            _ = try await laptop.logIn(
                email: "la@example.com", using: ScriptedCollector(.init(choices: [.totp], code: { _, _ in server.nextCode(totp) })),
                prefill: [.password: Harness.password])
            var request = URLRequest(url: server.url.appendingPathComponent("v1/activations"))
            request.httpMethod = "POST"
            request.setValue("Bearer \(try await laptop.validAccessToken())", forHTTPHeaderField: "Authorization")

            let (body, response) = try await URLSession(configuration: .ephemeral).data(for: request)

            #expect((response as? HTTPURLResponse)?.statusCode == 403)
            let problem = try WireJSON.decoder().decode(Problem.self, from: body)
            #expect(problem.code == .forbidden)
            #expect(problem.detail?.contains("device_activation") == true)
        }
    }

    @Test func refusedActivationKeepsTheOldBinding() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("ma@example.com")
            let keyDirectory = server.keyDirectory()
            let client = server.client(keyStore: FileDeviceKeyStore(directory: keyDirectory))
            let old = try await server.activate(client, for: userID, name: "Old phone")
            // A code with a right checksum that the server never issued: refused by the server.
            let unknown = ActivationCode.generate(using: SystemRandom()).description

            let error = await #expect(throws: SCAClientError.self) {
                try await client.activateDevice(code: unknown, name: "New phone")
            }

            #expect(error?.problemCode == .activationCodeInvalid)
            #expect(try await FileDeviceKeyStore(directory: keyDirectory).binding() == old)
            let tokens = try await client.coldStart(using: ScriptedCollector(.init()))
            #expect(tokens.amr == [.deviceKey, .biometricKey], "the old keys still sign")
            #expect(try FileManager.default.contentsOfDirectory(atPath: keyDirectory.path) == ["device.json"], "no pending keys left")
            // A name the server would refuse is refused before any key is made.
            let issued = try await server.services.devices.issueActivationCode(for: userID)
            await #expect(throws: SCAClientError.self) { try await client.activateDevice(code: issued.activationCode, name: "New\u{202E}phone") }
            #expect(try await client.deviceStatus().status == .active)

            // With a right code the new binding replaces the old one, keys and all.
            let new = try await client.activateDevice(code: issued.activationCode, name: "New phone")
            #expect(new.deviceId != old.deviceId)
            #expect(try await FileDeviceKeyStore(directory: keyDirectory).binding() == new)
            let again = try await client.coldStart(using: ScriptedCollector(.init()))
            #expect(again.amr == [.deviceKey, .biometricKey], "the new keys sign for the new device")
            #expect(try await client.deviceStatus() == DeviceStatusResponse(status: .active, failCount: 0, maxFailCount: 5, remainingAttempts: 5))
            #expect(try FileManager.default.contentsOfDirectory(atPath: keyDirectory.path) == ["device.json"])
        }
    }
}
