/// Where a device keeps its two signing keys and its binding to a user. On a phone the keys
/// belong in the Secure Enclave; ``FileDeviceKeyStore`` keeps them in owner-only files.
///
/// An activation never destroys the binding it would replace before the server has accepted
/// the new one: it makes keys aside (``createPendingKeys()``), proves possession with them
/// (``signWithPendingKey(_:with:of:)``), and only after the server registered them makes them
/// current together with their binding (``commitPendingKeys(_:binding:)``), in one step. A
/// refused activation discards them (``discardPendingKeys(_:)``) and the old binding still works.
public protocol DeviceKeyStore: Sendable {
    /// Creates fresh keys aside; the current keys and binding stay in use.
    ///
    /// - Returns: the pending keys' name and public keys (X9.63 uncompressed, 65 bytes each);
    ///   `biometry` is nil when the device cannot make a biometry-gated key.
    /// - Throws: the store's error when the keys cannot be made or kept.
    func createPendingKeys() async throws -> PendingDeviceKeys

    /// Signs with one of the pending keys: the activation's proof of possession.
    ///
    /// - Parameters:
    ///   - payload: the bytes to sign (`DeviceSignature.activationPayload(for:)`).
    ///   - key: which key.
    ///   - pending: the keys from ``createPendingKeys()``.
    /// - Returns: the raw `r||s` (64 bytes) ECDSA-SHA256 signature.
    /// - Throws: when the pending keys are gone or refuse to sign.
    func signWithPendingKey(_ payload: [UInt8], with key: DeviceKeyKind, of pending: PendingDeviceKeys) async throws -> [UInt8]

    /// Makes the pending keys the device's keys, with `binding`, in one step: afterwards ``sign(_:with:)``
    /// uses them and ``binding()`` answers `binding`; an interruption leaves either the old keys
    /// and binding or the new ones, never a mix. The replaced keys are forgotten.
    ///
    /// - Parameters:
    ///   - pending: the keys the server registered.
    ///   - binding: the device, user and server.
    /// - Throws: when the pending keys are gone or the store cannot be written (the old keys
    ///   and binding then stay).
    func commitPendingKeys(_ pending: PendingDeviceKeys, binding: DeviceBinding) async throws

    /// Forgets pending keys that will not be used; the current keys and binding stay.
    /// - Parameter pending: the keys from ``createPendingKeys()``.
    /// - Throws: the store's error when they cannot be deleted.
    func discardPendingKeys(_ pending: PendingDeviceKeys) async throws

    /// Signs with one of the current keys.
    ///
    /// - Parameters:
    ///   - payload: the bytes to sign (`DeviceSignature.payload(…)`).
    ///   - key: which key.
    /// - Returns: the raw `r||s` (64 bytes) ECDSA-SHA256 signature.
    /// - Throws: when the key does not exist or refuses to sign.
    func sign(_ payload: [UInt8], with key: DeviceKeyKind) async throws -> [UInt8]

    /// The binding saved by the last activation, or nil.
    /// - Throws: the store's error when it cannot be read.
    func binding() async throws -> DeviceBinding?

    /// Forgets keys, pending keys and binding (a device removed by the server must be activated again).
    /// - Throws: the store's error when they cannot be deleted.
    func reset() async throws
}
