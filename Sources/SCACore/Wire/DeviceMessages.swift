import Foundation

/// `201` for `POST /v1/activations` and `POST /admin/v1/users/{id}/activations`.
public struct ActivationCodeResponse: Codable, Sendable, Equatable {
    /// `XXXXX-XXXXX-XXXXX-XXXXX`, shown to the user once.
    public var activationCode: String
    public var expiresAt: Date

    public init(activationCode: String, expiresAt: Date) {
        self.activationCode = activationCode
        self.expiresAt = expiresAt
    }
}

/// `POST /v1/devices`: bind a device with an activation code and its P-256 keys.
package struct RegisterDeviceRequest: Codable, Sendable, Equatable {
    package var activationCode: String
    package var name: String
    package var platform: String
    /// base64url X9.63 uncompressed point (65 bytes).
    package var possessionKey: String
    /// base64url X9.63 uncompressed point of the biometry-gated key, if the device has one.
    package var biometryKey: String?
    /// base64url raw `r||s` signature by the possession key over `sca-v1|activation|<code>`.
    package var proof: String

    package init(
        activationCode: String, name: String, platform: String, possessionKey: String, biometryKey: String?,
        proof: String
    ) {
        self.activationCode = activationCode
        self.name = name
        self.platform = platform
        self.possessionKey = possessionKey
        self.biometryKey = biometryKey
        self.proof = proof
    }
}

/// `201` for a registered device.
package struct RegisteredDeviceResponse: Codable, Sendable, Equatable {
    package var deviceId: String
    package var userId: String
    package var status: DeviceStatus

    package init(deviceId: String, userId: String, status: DeviceStatus) {
        self.deviceId = deviceId
        self.userId = userId
        self.status = status
    }
}

/// `GET /v1/devices/{id}/status`.
public struct DeviceStatusResponse: Codable, Sendable, Equatable {
    public var status: DeviceStatus
    public var failCount: Int
    public var maxFailCount: Int
    public var remainingAttempts: Int

    public init(status: DeviceStatus, failCount: Int, maxFailCount: Int, remainingAttempts: Int) {
        self.status = status
        self.failCount = failCount
        self.maxFailCount = maxFailCount
        self.remainingAttempts = remainingAttempts
    }
}

/// A device as its owner or an operator sees it (never its keys).
/// `PATCH /v1/devices/{id}`: the name the user knows a device by.
public struct RenameDeviceRequest: Codable, Sendable, Equatable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

public struct DeviceResponse: Codable, Sendable, Equatable {
    public var deviceId: String
    public var name: String
    public var platform: String
    public var status: DeviceStatus
    public var hasBiometryKey: Bool
    public var failCount: Int
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(
        deviceId: String, name: String, platform: String, status: DeviceStatus, hasBiometryKey: Bool, failCount: Int,
        createdAt: Date, lastUsedAt: Date?
    ) {
        self.deviceId = deviceId
        self.name = name
        self.platform = platform
        self.status = status
        self.hasBiometryKey = hasBiometryKey
        self.failCount = failCount
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// `PATCH /v1/me`: the user's own settings change, with a `settings_change` token.
package struct SettingsChangeRequest: Codable, Sendable, Equatable {
    package var email: String?
    package var password: String?
    package var pin: String?
    package var phone: String?

    package init(email: String? = nil, password: String? = nil, pin: String? = nil, phone: String? = nil) {
        self.email = email
        self.password = password
        self.pin = pin
        self.phone = phone
    }
}
