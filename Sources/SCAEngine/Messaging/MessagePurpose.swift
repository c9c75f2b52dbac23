/// Why a message goes to a user: named in the log, the metric and the audit entry of a message
/// that could not be delivered, in place of its text (which may hold a code).
package enum MessagePurpose: String, Sendable, CaseIterable {
    /// A one-time code (`POST /v1/challenges/{id}/otp`).
    case code
    /// The notice to a known address that asked to sign up, in place of a code.
    case signUpNotice = "sign_up_notice"
    /// A security alert: the user was blocked after failed attempts.
    case lockoutAlert = "lockout_alert"
    /// A security alert: a device, passkey or credential bound or changed, a recovery used.
    case securityAlert = "security_alert"
    /// "An operation is waiting" to a bound device.
    case operationPush = "operation_push"
}
