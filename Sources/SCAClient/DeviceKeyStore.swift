/// Where a device keeps its two signing keys and its binding to a user. On a phone the keys
/// belong in the Secure Enclave; ``FileDeviceKeyStore`` keeps them in owner-only files.
public protocol DeviceKeyStore: Sendable {
    /// Creates fresh keys, replacing any (and forgetting the binding made with the old ones).
    ///
    /// - Returns: the public keys as X9.63 uncompressed points (65 bytes each); `biometry` is nil
    ///   when the device cannot make a biometry-gated key.
    /// - Throws: the store's error when the keys cannot be made or kept.
    func createKeys() async throws -> (possession: [UInt8], biometry: [UInt8]?)

    /// Signs with one of the keys.
    ///
    /// - Parameters:
    ///   - payload: the bytes to sign (`DeviceSignature.payload(…)`).
    ///   - key: which key.
    /// - Returns: the raw `r||s` (64 bytes) ECDSA-SHA256 signature.
    /// - Throws: when the key does not exist or refuses to sign.
    func sign(_ payload: [UInt8], with key: DeviceKeyKind) async throws -> [UInt8]

    /// The binding saved after activation, or nil.
    /// - Throws: the store's error when it cannot be read.
    func binding() async throws -> DeviceBinding?

    /// Keeps the binding made by an activation.
    /// - Parameter binding: the device, user and server.
    /// - Throws: the store's error when it cannot be written.
    func saveBinding(_ binding: DeviceBinding) async throws

    /// Forgets keys and binding (a device removed by the server must be activated again).
    /// - Throws: the store's error when they cannot be deleted.
    func reset() async throws
}
