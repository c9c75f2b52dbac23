import Crypto
import SCAClient

/// A device's two P-256 keys and its binding, in memory. An app keeps them in a Secure Enclave
/// or files; the harness keeps them here so a flow's client cost is the signing, not file I/O.
actor InMemoryDeviceKeyStore: DeviceKeyStore {
    private var possession: P256.Signing.PrivateKey?
    private var biometry: P256.Signing.PrivateKey?
    private var stored: DeviceBinding?

    func createKeys() async throws -> (possession: [UInt8], biometry: [UInt8]?) {
        let possession = P256.Signing.PrivateKey()
        let biometry = P256.Signing.PrivateKey()
        self.possession = possession
        self.biometry = biometry
        return (Array(possession.publicKey.x963Representation), Array(biometry.publicKey.x963Representation))
    }

    func sign(_ payload: [UInt8], with key: DeviceKeyKind) async throws -> [UInt8] {
        guard let signer = key == .possession ? possession : biometry else {
            throw BenchError("no \(key.rawValue) key: the device was not activated")
        }
        return Array(try signer.signature(for: payload).rawRepresentation)
    }

    func binding() async throws -> DeviceBinding? { stored }

    func saveBinding(_ binding: DeviceBinding) async throws { stored = binding }

    func reset() async throws {
        possession = nil
        biometry = nil
        stored = nil
    }
}
