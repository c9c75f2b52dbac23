/// A way of proving one category. The raw values are the wire ids of openapi.yaml.
public enum AuthenticationMethod: String, Codable, Sendable, CaseIterable {
    case password
    case pin
    case totp
    case smsOTP = "sms_otp"
    case emailOTP = "email_otp"
    case deviceKey = "device_key"
    case biometricKey = "biometric_key"

    /// The category a successful proof of this method counts towards.
    public var category: Category {
        switch self {
        case .password, .pin: .knowledge
        case .totp, .smsOTP, .emailOTP, .deviceKey: .possession
        case .biometricKey: .inherence
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
}
