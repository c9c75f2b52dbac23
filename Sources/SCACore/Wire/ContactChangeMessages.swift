import Foundation

/// The channel a new address is for: an e-mail address, or a phone number for SMS.
public enum ContactChannel: String, Codable, Sendable, CaseIterable {
    case email
    case phone
}

/// A new e-mail address or phone number waiting for the code sent to it: until the code comes
/// back (`POST /v1/me/contact-confirmations`), the account keeps its old one.
public struct PendingContactChangeResponse: Codable, Sendable, Equatable {
    public var channel: ContactChannel
    /// The new address, masked as a code's destination is (`n****@example.com`).
    public var sentTo: String
    /// After this the code no longer counts and the change is dropped.
    public var expiresAt: Date

    public init(channel: ContactChannel, sentTo: String, expiresAt: Date) {
        self.channel = channel
        self.sentTo = sentTo
        self.expiresAt = expiresAt
    }
}

/// `POST /v1/me/contact-confirmations`: the code sent to the new address, typed back.
public struct ContactConfirmationRequest: Codable, Sendable, Equatable {
    public var channel: ContactChannel
    /// Six digits.
    public var code: String

    public init(channel: ContactChannel, code: String) {
        self.channel = channel
        self.code = code
    }
}

/// `POST /v1/me/totp`: a new authenticator-app seed, shown this once, that counts only after
/// a first code from the app comes back (`POST /v1/me/totp/confirmation`).
public struct TOTPSetupResponse: Codable, Sendable, Equatable {
    /// The seed in Base32, for typing into an app by hand.
    public var secret: String
    /// The `otpauth://totp/...` URI a QR code carries.
    public var otpauthUri: String
    /// After this the seed is dropped unconfirmed.
    public var expiresAt: Date

    public init(secret: String, otpauthUri: String, expiresAt: Date) {
        self.secret = secret
        self.otpauthUri = otpauthUri
        self.expiresAt = expiresAt
    }
}

/// `POST /v1/me/totp/confirmation`: a code the authenticator app shows for the new seed.
public struct TOTPConfirmationRequest: Codable, Sendable, Equatable {
    public var code: String

    public init(code: String) {
        self.code = code
    }
}
