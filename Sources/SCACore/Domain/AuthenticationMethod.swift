/// A way of proving one category. The raw values are the wire ids of openapi.yaml.
public enum AuthenticationMethod: String, Codable, Sendable, CaseIterable {
    case password
    case pin
    case totp
    case smsOTP = "sms_otp"
    case emailOTP = "email_otp"
    case deviceKey = "device_key"
    case biometricKey = "biometric_key"
    // Passkeys.
    /// A WebAuthn assertion by one of the user's passkeys.
    case passkey
    /// Never offered or proven on its own: the token's `amr` names it after `passkey` when the
    /// authenticator verified the user (biometric or PIN), which proved a second category
    /// (`webauthn.userVerifiedCategory`, inherence unless configured as knowledge).
    case passkeyUserVerified = "passkey_uv"

    /// The category a successful proof of this method counts towards.
    public var category: Category {
        switch self {
        case .password, .pin: .knowledge
        case .totp, .smsOTP, .emailOTP, .deviceKey, .passkey: .possession
        case .biometricKey, .passkeyUserVerified: .inherence
        }
    }

    /// Methods whose code the server sends (and so can be resent).
    public var isDeliveredCode: Bool {
        self == .smsOTP || self == .emailOTP
    }

    /// Methods proven by a device signature rather than a typed credential.
    public var isDeviceSignature: Bool {
        self == .deviceKey || self == .biometricKey
    }

    /// Whether a proof may name this method (`passkey_uv` only appears in a token's `amr`).
    public var isProvable: Bool {
        self != .passkeyUserVerified
    }
}
