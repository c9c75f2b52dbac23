import Crypto
import SCAClient

/// A key store whose possession key signs with a key the server never saw: a device whose key
/// was replaced behind the server's back.
struct MismatchedKeyStore: DeviceKeyStore {
    let base: FileDeviceKeyStore
    let stranger = P256.Signing.PrivateKey()

    func createKeys() async throws -> (possession: [UInt8], biometry: [UInt8]?) { try await base.createKeys() }

    func sign(_ payload: [UInt8], with key: DeviceKeyKind) async throws -> [UInt8] {
        // The activation proof must still pass, so only challenge signatures go wrong.
        guard key == .possession, !payload.starts(with: Array("sca-v1|activation|".utf8)) else {
            return try await base.sign(payload, with: key)
        }
        return Array(try stranger.signature(for: payload).rawRepresentation)
    }

    func binding() async throws -> DeviceBinding? { try await base.binding() }
    func saveBinding(_ binding: DeviceBinding) async throws { try await base.saveBinding(binding) }
    func reset() async throws { try await base.reset() }
}
