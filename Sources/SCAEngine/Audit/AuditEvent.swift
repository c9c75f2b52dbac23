/// The security events the audit trail records (RTS art. 29), by their stored names.
package enum AuditEvent: String, Sendable, CaseIterable {
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
    /// The owner renamed a device (neither name is recorded).
    case deviceRenamed = "device.renamed"
    case activationCodeIssued = "device.activation_code_issued"
    case tokenIssued = "token.issued"
    case tokenRefreshed = "token.refreshed"
    case tokenRevoked = "token.revoked"
    case tokenReuseDetected = "token.reuse_detected"
    case codeSent = "code.sent"
    case adminUserCreated = "admin.user_created"
    case adminUserUpdated = "admin.user_updated"
    case adminTOTPEnrolled = "admin.totp_enrolled"
    /// An operator removed the user's authenticator app (a lost or replaced phone).
    case adminTOTPRemoved = "admin.totp_removed"
    case adminUserUnblocked = "admin.user_unblocked"
    /// Everything stored about a user was exported (`GET /admin/v1/users/{id}/export`, `sca-server
    /// user export`): who asked is the entry's actor.
    case adminUserExported = "admin.user_exported"
    /// An operator ended every session of a user (a lost phone, a suspected takeover); details
    /// say how many ended.
    case adminSessionsEnded = "admin.sessions_ended"
    /// The user changed their own password, PIN, phone or e-mail (`PATCH /v1/me`); details
    /// name the fields, never the values.
    case userSettingsChanged = "user.settings_changed"
    /// A send or challenge refused by a budget across challenges; details name the
    /// budget (`destination`, `user`, `client`, `global`) and the action, never the destination.
    case rateLimited = "rate.limited"
    // Scoped admin keys, roles and operators.
    /// A scoped admin key was created; details name it and its scopes, never the key.
    case adminKeyCreated = "admin.key_created"
    case adminKeyRevoked = "admin.key_revoked"
    /// A user's roles were replaced; details list the roles before and after.
    case adminRolesChanged = "admin.roles_changed"
    /// An authenticated admin caller (key or operator) was refused a scope; details name it.
    case adminAccessDenied = "admin.access_denied"
    // Risk engine and exemptions.
    /// One per risk decision on a payment or account-information challenge, exempt or not
    /// (outcome `exempt`, `sca` or `refused`): the rule, every rule's verdict, the signals and
    /// the counters it used.
    case riskDecision = "risk.decision"
    /// TRA stopped for a band after two consecutive quarters above its reference rate (art. 20).
    case traSuspended = "risk.tra_suspended"
    /// TRA resumed for a band after a quarter at or below its reference rate (art. 21).
    case traResumed = "risk.tra_resumed"
    case fraudReported = "risk.fraud_reported"
    case beneficiaryAdded = "beneficiary.added"
    case beneficiaryRemoved = "beneficiary.removed"
    // Hosted pages for partners.
    case partnerClientCreated = "partner.client_created"
    case partnerClientRemoved = "partner.client_removed"
    /// A partner client's authentication failed (wrong or unexpected secret); `outcome`
    /// `throttled` when the client was refused for too many failures in a row.
    case clientAuthenticationFailed = "partner.client_authentication_failed"
    /// A sign-in on the hosted page ended with an authorization code for a partner client.
    case authorizationCodeIssued = "oauth.code_issued"
    case authorizationCodeRedeemed = "oauth.code_redeemed"
    /// A code presented again (or too late): the tokens issued from it are revoked.
    case authorizationCodeRefused = "oauth.code_refused"
    /// Details `from` and `to` (consent status names) and the client.
    case consentChanged = "consent.changed"
    // Passkeys.
    /// Outcome `success`, or `rejected` with the failed check in details.
    case passkeyRegistered = "passkey.registered"
    /// Removed by its owner or (actor `admin`) an operator.
    case passkeyRemoved = "passkey.removed"
    /// Its signature counter went backwards: marked suspect and refused from then on.
    case passkeySuspect = "passkey.suspect"
    // Decoupled operations.
    case operationCreated = "operation.created"
    /// Outcome: the final status (`approved`, `rejected`, `failed`, `canceled`, `expired`).
    case operationFinished = "operation.finished"
    /// An approval or rejection refused: another user's or device's operation, a closed one.
    case operationRefused = "operation.refused"
    /// The user answered `not_me`: someone else started this operation.
    case operationFraudSignal = "operation.fraud_signal"
    /// A device-signed request refused (bad or replayed signature, blocked or removed device).
    case deviceRequestRefused = "device.request_refused"
    // Sign-up or in.
    /// A new address proved by its e-mail code became a user (details: `methods`).
    case signUpUserCreated = "signup.user_created"
    /// The new user added a second element with the enrolment token (details: `element`).
    case signUpEnrolled = "signup.enrolled"
    // Partner webhooks.
    /// A partner client's webhook set (details: the client) or removed (outcome `removed`).
    case partnerWebhookChanged = "partner.webhook_changed"
    /// A webhook event given up after its last retry (details: event, operation, client, last status).
    case webhookAbandoned = "webhook.abandoned"
    /// An operator sent a failed or abandoned delivery again (details: event, client, kind).
    case webhookRetried = "webhook.retried"
    /// A webhook attempt not made: its host is or resolves to a special-purpose address
    /// (outcome: the kind; details: event, client, host).
    case webhookAddressRefused = "webhook.address_refused"
    // Background message delivery.
    /// A message to a user given up: outcome `failed` (the gateway refused every attempt),
    /// `dropped` (the queue was full or the server stopping). Details: channel, purpose,
    /// attempts; the user and challenge when known; never the text (it may hold a code).
    case messageDeliveryFailed = "message.delivery_failed"
    /// A security alert or a lockout warning went to the user (details: purpose, alert,
    /// channels; never the text). Its delivery failing is `message.delivery_failed`.
    case alertSent = "alert.sent"
    // Signing-key rotation.
    /// A new token-signing key was stored: details name its key id, when it starts to sign
    /// (`activatesAt`) and what rotated it (`trigger`: `command` or `period`).
    case keysRotated = "keys.rotated"
    // Retention and erasure.
    /// A retention pass deleted rows that no check needs any more (details: how many of each
    /// kind). Written only when it deleted something.
    case retentionPurged = "retention.purged"
    /// The oldest audit entries were written to an archive file and cut from the database
    /// (details: `through`, the last archived sequence; `entries`; `archive`, the file name).
    case auditArchived = "audit.archived"
    /// A user was erased (details: rows deleted, payments kept without their payer, audit
    /// entries cleared of personal facts, and those written before facts were sealed).
    case userErased = "user.erased"
    // Recovery after a lost phone.
    /// A new recovery sheet replaced the user's earlier one (details: how many PUKs).
    case recoverySheetIssued = "recovery.sheet_issued"
    /// A recovery bound a new device (the entry's device); details say how many devices were
    /// removed, sessions ended and PUKs are left.
    case recoveryCompleted = "recovery.completed"
    /// A recovery's proofs were not right (outcome `failure`, details: attempts left; never
    /// which proof), or its code matched no sheet (outcome `unknown_code`).
    case recoveryFailed = "recovery.failed"
    /// Recovery with a sheet blocked after failed attempts: outcome `temporary` or `permanent`.
    case recoveryLocked = "recovery.locked"
    // A forgotten password.
    /// A password was reset with a `password_reset` token: outcome `complete` or `restricted`;
    /// details name the methods proven, the sessions ended, the end of the cooling-off and
    /// the PUKs left when the recovery sheet was used.
    case passwordReset = "password.reset"
    /// An operator lifted the restriction a reset left.
    case restrictionLifted = "user.restriction_lifted"
    // The user's own account.
    /// The user ended their own sessions: details say how many and which (`one` or `others`).
    case accountSessionsEnded = "account.sessions_ended"
    /// The user took a partner's access away: details name the client, the sessions ended and
    /// the consents refused (or the one consent revoked).
    case accountPartnerRevoked = "account.partner_revoked"
    /// The user asked for a new e-mail address or phone number: a code went to it (the entry's
    /// channel says which). The change counts once the code comes back (`user.settings_changed`).
    case contactChangeRequested = "contact.change_requested"
    /// A new address was not confirmed: outcome `wrong_code` (details: tries left), `dropped`
    /// (too many wrong codes) or `cancelled`.
    case contactChangeRefused = "contact.change_refused"
    /// The user was shown a new authenticator-app seed; it counts once a code of it comes back.
    case totpSetupStarted = "totp.setup_started"
    /// A new authenticator-app seed was not confirmed: outcome `wrong_code` or `dropped`.
    case totpSetupRefused = "totp.setup_refused"
    /// The user's new authenticator app was confirmed with a code of it and replaced the old one.
    case totpEnrolled = "user.totp_enrolled"
}
