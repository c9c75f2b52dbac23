import Foundation

/// `201` for `POST /v1/me/recovery-sheet`: a new recovery sheet, shown this once. The server
/// keeps only keyed digests of the code and the PUKs.
public struct RecoverySheetResponse: Codable, Sendable, Equatable {
    /// `XXXXX-XXXXX-XXXXX-XXXXX`: names the sheet; used with every PUK.
    public var recoveryCode: String
    /// `12345-67890`, in the order they are to be used; each works once.
    public var puks: [String]
    public var issuedAt: Date

    public init(recoveryCode: String, puks: [String], issuedAt: Date) {
        self.recoveryCode = recoveryCode
        self.puks = puks
        self.issuedAt = issuedAt
    }
}

/// `GET /v1/me/recovery-sheet`: what is left of the user's sheet, never its code or PUKs.
public struct RecoverySheetStatusResponse: Codable, Sendable, Equatable {
    public var issuedAt: Date
    public var puksLeft: Int
    /// The number (from 1) of the PUK the next recovery needs; nil when none is left.
    public var nextPUK: Int?
    /// Recovery with this sheet is blocked after failed attempts: until `lockedUntil`, or,
    /// when that is nil, until a new sheet is issued.
    public var locked: Bool
    public var lockedUntil: Date?

    public init(issuedAt: Date, puksLeft: Int, nextPUK: Int?, locked: Bool, lockedUntil: Date?) {
        self.issuedAt = issuedAt
        self.puksLeft = puksLeft
        self.nextPUK = nextPUK
        self.locked = locked
        self.lockedUntil = lockedUntil
    }
}

/// `POST /v1/recovery`: bind a new device with the recovery sheet (the code and the next PUK)
/// and the user's password or PIN, after a lost phone.
package struct RecoveryRequest: Codable, Sendable, Equatable {
    package var recoveryCode: String
    package var puk: String
    /// One of the user's knowledge elements.
    package var password: String?
    package var pin: String?
    package var name: String
    package var platform: String
    /// base64url X9.63 uncompressed point (65 bytes).
    package var possessionKey: String
    package var biometryKey: String?
    /// base64url raw `r||s` signature by the possession key over
    /// `sca-v1|recovery|<recovery code>|<PUK digits>`.
    package var proof: String

    package init(
        recoveryCode: String, puk: String, password: String?, pin: String?, name: String, platform: String,
        possessionKey: String, biometryKey: String?, proof: String
    ) {
        self.recoveryCode = recoveryCode
        self.puk = puk
        self.password = password
        self.pin = pin
        self.name = name
        self.platform = platform
        self.possessionKey = possessionKey
        self.biometryKey = biometryKey
        self.proof = proof
    }
}

/// `201` for a recovery: the new device, and what the recovery ended.
public struct RecoveryResponse: Codable, Sendable, Equatable {
    public var deviceId: String
    public var userId: String
    public var status: DeviceStatus
    /// The user's other devices, now removed.
    public var devicesRemoved: Int
    /// The user's sessions, now ended.
    public var sessionsEnded: Int
    public var puksLeft: Int

    public init(deviceId: String, userId: String, status: DeviceStatus, devicesRemoved: Int, sessionsEnded: Int, puksLeft: Int) {
        self.deviceId = deviceId
        self.userId = userId
        self.status = status
        self.devicesRemoved = devicesRemoved
        self.sessionsEnded = sessionsEnded
        self.puksLeft = puksLeft
    }
}
