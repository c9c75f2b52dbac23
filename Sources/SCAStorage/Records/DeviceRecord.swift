import Foundation
import SCACore

/// A device bound to a user: its P-256 public keys (X9.63 uncompressed, 65 bytes) and state.
public struct DeviceRecord: Sendable, Equatable {
    public var id: String
    public var userID: String
    public var name: String
    public var platform: String
    /// Possession key: proves the device is the one that was activated.
    public var possessionKey: [UInt8]
    /// Biometry-gated key: usable only after the device's biometric check (inherence).
    public var biometryKey: [UInt8]?
    public var status: DeviceStatus
    /// Consecutive wrong signatures; at the limit the device is blocked.
    public var failCount: Int
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(
        id: String, userID: String, name: String, platform: String, possessionKey: [UInt8],
        biometryKey: [UInt8]? = nil, status: DeviceStatus = .active, failCount: Int = 0, createdAt: Date,
        lastUsedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.name = name
        self.platform = platform
        self.possessionKey = possessionKey
        self.biometryKey = biometryKey
        self.status = status
        self.failCount = failCount
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// A one-time activation code, by a keyed hash. Its first group (`lookupID`) finds it, so a
/// wrong remainder can be counted against that code.
public struct ActivationCodeRecord: Sendable, Equatable {
    /// The first group of the code (5 Base32 characters).
    public var lookupID: String
    /// Keyed hash of the whole normalised code.
    public var codeHash: [UInt8]
    public var userID: String
    public var createdAt: Date
    public var expiresAt: Date
    public var failedTries: Int
    public var usedAt: Date?

    public init(
        lookupID: String, codeHash: [UInt8], userID: String, createdAt: Date, expiresAt: Date,
        failedTries: Int = 0, usedAt: Date? = nil
    ) {
        self.lookupID = lookupID
        self.codeHash = codeHash
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.failedTries = failedTries
        self.usedAt = usedAt
    }
}
