/// The security events the audit trail records (RTS art. 29), by their stored names.
public enum AuditEvent: String, Sendable, CaseIterable {
    case challengeCreated = "challenge.created"
    case challengeCompleted = "challenge.completed"
    /// A deferred verdict came out wrong: the collected proofs were discarded.
    case challengeFailed = "challenge.failed"
    case challengeExpired = "challenge.expired"
    case challengeCancelled = "challenge.cancelled"
    case proofAccepted = "proof.accepted"
    case proofRejected = "proof.rejected"
    /// Outcome `temporary` or `permanent`.
    case userLocked = "user.locked"
    case deviceActivated = "device.activated"
    case deviceBlocked = "device.blocked"
    case deviceUnblocked = "device.unblocked"
    case deviceRemoved = "device.removed"
    case activationCodeIssued = "device.activation_code_issued"
    case tokenIssued = "token.issued"
    case tokenRefreshed = "token.refreshed"
    case tokenRevoked = "token.revoked"
    case tokenReuseDetected = "token.reuse_detected"
    case codeSent = "code.sent"
    case adminUserCreated = "admin.user_created"
    case adminUserUpdated = "admin.user_updated"
    case adminTOTPEnrolled = "admin.totp_enrolled"
    case adminUserUnblocked = "admin.user_unblocked"
    /// The user changed their own password, PIN, phone or e-mail (`PATCH /v1/me`); details
    /// name the fields, never the values.
    case userSettingsChanged = "user.settings_changed"
    /// A send or challenge refused by a budget across challenges (issue 15); details name the
    /// budget (`destination`, `user`, `client`, `global`) and the action, never the destination.
    case rateLimited = "rate.limited"
    // Passkeys (issue 11).
    /// Outcome `success`, or `rejected` with the failed check in details.
    case passkeyRegistered = "passkey.registered"
    /// Removed by its owner or (actor `admin`) an operator.
    case passkeyRemoved = "passkey.removed"
    /// Its signature counter went backwards: marked suspect and refused from then on.
    case passkeySuspect = "passkey.suspect"
}
