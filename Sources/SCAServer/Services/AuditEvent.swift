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
    // Hosted pages for partners (issue 9).
    case partnerClientCreated = "partner.client_created"
    case partnerClientRemoved = "partner.client_removed"
    /// A sign-in on the hosted page ended with an authorization code for a partner client.
    case authorizationCodeIssued = "oauth.code_issued"
    case authorizationCodeRedeemed = "oauth.code_redeemed"
    /// A code presented again (or too late): the tokens issued from it are revoked.
    case authorizationCodeRefused = "oauth.code_refused"
    /// Details `from` and `to` (Swan status names) and the client.
    case consentChanged = "consent.changed"
}
