import Crypto
import Foundation
import SCAClient
import Testing

/// The file stores: owner-only files that survive a restart.
@Suite struct StoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-sdk-store-\(UUID().uuidString)")

    func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? Int) & 0o777
    }

    @Test func deviceKeysAreOwnerOnlyAndSurviveReopening() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = directory.appendingPathComponent("keys")
        let store = FileDeviceKeyStore(directory: keys)
        #expect(try await store.binding() == nil)
        await #expect(throws: SCAClientError.deviceNotActivated) { try await store.sign([1, 2, 3], with: .possession) }

        let pending = try await store.createPendingKeys()
        let biometry = try #require(pending.biometry)
        #expect(pending.possession.count == 65)
        #expect(biometry.count == 65)
        // Pending keys sign the activation proof but are not the device's keys yet.
        let proof = try await store.signWithPendingKey([9], with: .possession, of: pending)
        #expect(DeviceSignature.isValid(signature: proof, over: [9], publicKey: pending.possession))
        await #expect(throws: SCAClientError.deviceNotActivated) { try await store.sign([1, 2, 3], with: .possession) }
        #expect(try await store.binding() == nil)
        let binding = DeviceBinding(
            deviceId: "dev_x", userId: "usr_y", server: try #require(URL(string: "http://127.0.0.1:8080")), name: "phone",
            hasBiometryKey: true)
        try await store.commitPendingKeys(pending, binding: binding)

        #expect(try mode(keys) == 0o700)
        // Binding and keys are one file, replaced by one rename.
        #expect(try FileManager.default.contentsOfDirectory(atPath: keys.path) == ["device.json"])
        #expect(try mode(keys.appendingPathComponent("device.json")) == 0o600)

        let reopened = FileDeviceKeyStore(directory: keys)
        #expect(try await reopened.binding() == binding)
        let payload = Array("sca-v1|device_key|ch_1|nonce|login|-".utf8)
        for (kind, publicKey) in [(DeviceKeyKind.possession, pending.possession), (.biometry, biometry)] {
            let signature = try await reopened.sign(payload, with: kind)
            #expect(signature.count == 64)
            #expect(DeviceSignature.isValid(signature: signature, over: payload, publicKey: publicKey))
        }

        try await reopened.reset()
        #expect(try await store.binding() == nil)
        await #expect(throws: SCAClientError.deviceNotActivated) { try await store.sign(payload, with: .biometry) }
    }

    @Test func pendingKeysLeaveTheBindingUntilCommitted() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileDeviceKeyStore(directory: directory)
        let first = try await store.createPendingKeys()
        let binding = DeviceBinding(
            deviceId: "dev_x", userId: "usr_y", server: try #require(URL(string: "http://127.0.0.1")), name: "a",
            hasBiometryKey: true)
        try await store.commitPendingKeys(first, binding: binding)
        let payload: [UInt8] = [1, 2, 3]

        // Made aside and discarded: the old binding and keys are untouched.
        let discarded = try await store.createPendingKeys()
        #expect(try await store.binding() == binding)
        try await store.discardPendingKeys(discarded)
        #expect(try await store.binding() == binding)
        #expect(DeviceSignature.isValid(signature: try await store.sign(payload, with: .possession), over: payload, publicKey: first.possession))
        await #expect(throws: FileDeviceKeyStore.PendingKeysMissing.self) {
            try await store.commitPendingKeys(discarded, binding: binding)
        }
        await #expect(throws: FileDeviceKeyStore.PendingKeysMissing.self) {
            try await store.signWithPendingKey(payload, with: .possession, of: PendingDeviceKeys(id: "../device", possession: [], biometry: nil))
        }

        // Two activations at once do not mix keys: each commits its own.
        let a = try await store.createPendingKeys()
        let b = try await store.createPendingKeys()
        var second = binding
        second.deviceId = "dev_z"
        try await store.commitPendingKeys(a, binding: second)
        #expect(try await store.binding() == second)
        #expect(DeviceSignature.isValid(signature: try await store.sign(payload, with: .possession), over: payload, publicKey: a.possession))
        try await store.discardPendingKeys(b)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["device.json"])
    }

    @Test func bindingWrittenBeforeKeysMovedStillSigns() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // The layout of earlier versions: the binding alone in device.json, each key in its file.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let possession = P256.Signing.PrivateKey()
        try possession.rawRepresentation.write(to: directory.appendingPathComponent("possession.key"))
        try P256.Signing.PrivateKey().rawRepresentation.write(to: directory.appendingPathComponent("biometry.key"))
        let binding = DeviceBinding(
            deviceId: "dev_old", userId: "usr_y", server: try #require(URL(string: "http://127.0.0.1")), name: "a",
            hasBiometryKey: true)
        try WireJSON.encoder().encode(binding).write(to: directory.appendingPathComponent("device.json"))
        let store = FileDeviceKeyStore(directory: directory)

        #expect(try await store.binding() == binding)
        let signature = try await store.sign([7], with: .possession)
        #expect(DeviceSignature.isValid(signature: signature, over: [7], publicKey: Array(possession.publicKey.x963Representation)))

        // The next activation replaces the old files too.
        let pending = try await store.createPendingKeys()
        try await store.commitPendingKeys(pending, binding: binding)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["device.json"])
    }

    @Test func tokensAreOwnerOnlyAndSurviveReopening() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("session/tokens.json")
        let tokens = StoredTokens(
            accessToken: "a.b.c", refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 1_800_000_000), operation: .login)

        try await FileTokenStore(file: file).save(tokens)

        #expect(try mode(file) == 0o600)
        #expect(try mode(file.deletingLastPathComponent()) == 0o700)
        #expect(try await FileTokenStore(file: file).load() == tokens)
        try await FileTokenStore(file: file).clear()
        #expect(try await FileTokenStore(file: file).load() == nil)
        try await FileTokenStore(file: file).clear()
    }

    @Test func errorsDescribeThemselvesWithTheirCode() {
        let problem = Problem(status: 409, code: .challengeExpired, title: "Challenge expired")
        #expect(SCAClientError.server(problem).description == "challenge.expired: Challenge expired")
        #expect(SCAClientError.server(problem).problemCode == .challengeExpired)
        #expect(SCAClientError.locked(retryAfter: 900).description.hasPrefix("user.locked:"))
        #expect(SCAClientError.locked(retryAfter: nil).problemCode == .userLocked)
        #expect(SCAClientError.deviceRefused(.deviceBlocked).description.hasPrefix("device.blocked:"))
        #expect(SCAClientError.cancelled.problemCode == nil)
        #expect(!SCAClientError.noUsableMethod(missingCategories: 1).description.contains("\n"))
    }
}
