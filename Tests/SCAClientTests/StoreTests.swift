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

        let publicKeys = try await store.createKeys()
        let biometry = try #require(publicKeys.biometry)
        #expect(publicKeys.possession.count == 65)
        #expect(biometry.count == 65)
        let binding = DeviceBinding(
            deviceId: "dev_x", userId: "usr_y", server: try #require(URL(string: "http://127.0.0.1:8080")), name: "phone",
            hasBiometryKey: true)
        try await store.saveBinding(binding)

        #expect(try mode(keys) == 0o700)
        for file in ["possession.key", "biometry.key", "device.json"] {
            #expect(try mode(keys.appendingPathComponent(file)) == 0o600, "\(file)")
        }

        let reopened = FileDeviceKeyStore(directory: keys)
        #expect(try await reopened.binding() == binding)
        let payload = Array("sca-v1|device_key|ch_1|nonce|login|-".utf8)
        for (kind, publicKey) in [(DeviceKeyKind.possession, publicKeys.possession), (.biometry, biometry)] {
            let signature = try await reopened.sign(payload, with: kind)
            #expect(signature.count == 64)
            #expect(DeviceSignature.isValid(signature: signature, over: payload, publicKey: publicKey))
        }

        try await reopened.reset()
        #expect(try await store.binding() == nil)
        await #expect(throws: SCAClientError.deviceNotActivated) { try await store.sign(payload, with: .biometry) }
    }

    @Test func newKeysForgetTheOldBinding() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileDeviceKeyStore(directory: directory)
        _ = try await store.createKeys()
        try await store.saveBinding(
            DeviceBinding(
                deviceId: "dev_x", userId: "usr_y", server: try #require(URL(string: "http://127.0.0.1")), name: "a",
                hasBiometryKey: true))
        _ = try await store.createKeys()
        #expect(try await store.binding() == nil)
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
