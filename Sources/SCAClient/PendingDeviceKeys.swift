/// Keys made aside for an activation in progress. The device's current keys and binding stay in
/// use until the server has accepted these and the store commits them
/// (``DeviceKeyStore/commitPendingKeys(_:binding:)``); a refused activation discards them.
public struct PendingDeviceKeys: Sendable, Equatable {
    /// Names this set among the store's pending keys, so that two activations never mix keys.
    public var id: String
    /// The possession key's public point, X9.63 uncompressed (65 bytes).
    public var possession: [UInt8]
    /// The biometry-gated key's public point, or nil when the device cannot make one.
    public var biometry: [UInt8]?

    /// - Parameters:
    ///   - id: the store's name for this set.
    ///   - possession: the possession public key.
    ///   - biometry: the biometry public key, if any.
    public init(id: String, possession: [UInt8], biometry: [UInt8]?) {
        self.id = id
        self.possession = possession
        self.biometry = biometry
    }
}
