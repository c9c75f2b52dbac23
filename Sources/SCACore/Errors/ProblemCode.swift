/// The stable, machine-readable `code` of a problem response. Clients switch on these;
/// the set only grows.
public struct ProblemCode: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let requestInvalid = ProblemCode(rawValue: "request.invalid")
    public static let requestTooLarge = ProblemCode(rawValue: "request.too_large")
    public static let notFound = ProblemCode(rawValue: "resource.not_found")
    public static let methodNotAllowed = ProblemCode(rawValue: "request.method_not_allowed")
    public static let internalError = ProblemCode(rawValue: "server.internal")
    public static let serverBusy = ProblemCode(rawValue: "server.busy")

    public static let challengeNotFound = ProblemCode(rawValue: "challenge.not_found")
    public static let challengeExpired = ProblemCode(rawValue: "challenge.expired")
    public static let challengeCompleted = ProblemCode(rawValue: "challenge.completed")
    public static let challengeCancelled = ProblemCode(rawValue: "challenge.cancelled")
    public static let challengeFailed = ProblemCode(rawValue: "challenge.failed")
    public static let methodNotOffered = ProblemCode(rawValue: "method.not_offered")
    public static let categoriesUnavailable = ProblemCode(rawValue: "sca.categories_unavailable")
    public static let proofRejected = ProblemCode(rawValue: "sca.proof_rejected")
    public static let authenticationFailed = ProblemCode(rawValue: "sca.authentication_failed")
    public static let attemptsInProgress = ProblemCode(rawValue: "sca.attempts_in_progress")
    public static let userLocked = ProblemCode(rawValue: "user.locked")
    public static let userExists = ProblemCode(rawValue: "user.exists")
    public static let userNotFound = ProblemCode(rawValue: "user.not_found")

    public static let otpResendTooSoon = ProblemCode(rawValue: "otp.resend_too_soon")
    public static let otpSendLimit = ProblemCode(rawValue: "otp.send_limit")
    // `otp.delivery_failed` is no longer returned: messages are delivered after the answer.

    public static let tokenInvalid = ProblemCode(rawValue: "token.invalid")
    public static let tokenReused = ProblemCode(rawValue: "token.reused")
    public static let sessionExpired = ProblemCode(rawValue: "session.expired")

    public static let activationCodeInvalid = ProblemCode(rawValue: "activation.code_invalid")
    public static let deviceProofInvalid = ProblemCode(rawValue: "device.proof_invalid")
    public static let deviceLimitReached = ProblemCode(rawValue: "device.limit_reached")
    public static let deviceNotFound = ProblemCode(rawValue: "device.not_found")
    public static let deviceBlocked = ProblemCode(rawValue: "device.blocked")
    public static let deviceRemoved = ProblemCode(rawValue: "device.removed")
    public static let forbidden = ProblemCode(rawValue: "auth.forbidden")

    public static let unauthorized = ProblemCode(rawValue: "auth.unauthorized")
    public static let adminDisabled = ProblemCode(rawValue: "admin.disabled")
    /// The admin API needs a verified client certificate (`tls.adminRequiresClientCertificate`)
    /// and the request came without one (`403`).
    public static let clientCertificateRequired = ProblemCode(rawValue: "auth.client_certificate_required")

    // Send and challenge budgets.
    /// A budget across challenges (codes sent, challenges opened) is spent; see `Retry-After`.
    public static let rateLimited = ProblemCode(rawValue: "rate.limited")

    // Proofs checked one at a time, one proof per category in a deferred round, replays.
    public static let proofInProgress = ProblemCode(rawValue: "sca.proof_in_progress")
    public static let categoryAlreadyCollected = ProblemCode(rawValue: "sca.category_already_collected")
    public static let codeAlreadyUsed = ProblemCode(rawValue: "sca.code_already_used")
    // Database outage.
    /// The database did not answer within the configured deadline; retry after `Retry-After`.
    public static let serverUnavailable = ProblemCode(rawValue: "server.unavailable")
    // HTTP contract.
    /// The request's body did not arrive within the configured time (`408`).
    public static let requestTimeout = ProblemCode(rawValue: "request.timeout")
    /// A JSON route was sent a body of another media type (`415`).
    public static let unsupportedMediaType = ProblemCode(rawValue: "request.unsupported_media_type")
    /// A consuming introspection of a transaction-bound token named no transaction (`400`).
    public static let transactionRequired = ProblemCode(rawValue: "request.transaction_required")
    // Risk engine and exemptions.
    /// Transaction monitoring refused the operation (a deny-listed payee or device; `403`).
    public static let riskRefused = ProblemCode(rawValue: "risk.refused")
    /// No trusted beneficiary with that id for this user (`404`).
    public static let beneficiaryNotFound = ProblemCode(rawValue: "beneficiary.not_found")
    /// The user's list of trusted beneficiaries is full (`409`).
    public static let beneficiaryLimitReached = ProblemCode(rawValue: "beneficiary.limit_reached")
    /// That `txn` was reported fraudulent already (`409`).
    public static let fraudReportDuplicate = ProblemCode(rawValue: "fraud_report.duplicate")
    // Partner clients and consents.
    public static let clientNotFound = ProblemCode(rawValue: "client.not_found")
    public static let consentNotFound = ProblemCode(rawValue: "consent.not_found")
    /// The consent's status does not allow the change (accepted twice, cancelled after a refusal…).
    public static let consentClosed = ProblemCode(rawValue: "consent.closed")
    /// `consentRedirectUrl` is not one the client registered.
    public static let consentRedirectNotRegistered = ProblemCode(rawValue: "consent.redirect_not_registered")
    // Passkeys.
    /// Passkeys are not configured on this server (`webauthn.rpId`, `webauthn.origins`).
    public static let passkeyUnavailable = ProblemCode(rawValue: "passkey.unavailable")
    /// A registration or assertion failed one of the relying party's checks.
    public static let passkeyInvalid = ProblemCode(rawValue: "passkey.invalid")
    /// A registration challenge that is not this user's, expired or used already.
    public static let passkeyChallengeInvalid = ProblemCode(rawValue: "passkey.challenge_invalid")
    public static let passkeyAlreadyRegistered = ProblemCode(rawValue: "passkey.already_registered")
    public static let passkeyLimitReached = ProblemCode(rawValue: "passkey.limit_reached")
    public static let passkeyNotFound = ProblemCode(rawValue: "passkey.not_found")
    // Decoupled operations.
    public static let operationNotFound = ProblemCode(rawValue: "operation.not_found")
    /// The operation is final already (approved, rejected, failed, canceled or expired).
    public static let operationClosed = ProblemCode(rawValue: "operation.closed")
    /// The user has no active device with a biometric key to ask.
    public static let operationNoDevice = ProblemCode(rawValue: "operation.no_device")
    /// A device-signed request whose nonce, signature or device is not right, or was used before.
    public static let deviceRequestInvalid = ProblemCode(rawValue: "device.request_invalid")
    // Sign-up or in.
    /// An enrolment token (`op` `enrolment`) was presented where only a real SCA token serves (`403`).
    public static let enrolmentOnly = ProblemCode(rawValue: "auth.enrolment_only")
    /// The user already has a second element: an enrolment token adds one, once (`409`).
    public static let enrolmentComplete = ProblemCode(rawValue: "enrolment.complete")
    // Webhook hardening.
    /// A webhook URL whose host is a loopback, private, link-local or other special-purpose
    /// address (`webhookAllowPrivateAddresses` is off).
    public static let webhookAddressRefused = ProblemCode(rawValue: "webhook.address_refused")
    // Delegated tokens: who a token is for (``TokenAccess``).
    /// A partner's token at a route of the bank's own surfaces (`403`).
    public static let tokenDelegated = ProblemCode(rawValue: "token.delegated")
    /// A first-party token at a route that answers for one partner's grant (`403`).
    public static let tokenNotDelegated = ProblemCode(rawValue: "token.not_delegated")
    /// A partner's token without the scope the route needs (`403`).
    public static let tokenScopeMissing = ProblemCode(rawValue: "token.scope_missing")
    /// A partner asked the user to approve what is never granted to a partner: binding a
    /// device, a passkey, a change of credentials, e-mail or phone (`403`).
    public static let operationNotGrantable = ProblemCode(rawValue: "partner.operation_not_grantable")
    // Recovery after a lost phone.
    /// A recovery's proofs were not right (the code, the PUK or the knowledge element; the
    /// answer never says which), or the sheet has no PUK left (`400`).
    public static let recoveryFailed = ProblemCode(rawValue: "recovery.failed")
    /// Recovery with this sheet is blocked after failed attempts (`423`).
    public static let recoveryLocked = ProblemCode(rawValue: "recovery.locked")
    /// The user has no recovery sheet (`404`).
    public static let recoverySheetNotFound = ProblemCode(rawValue: "recovery.no_sheet")
    // A forgotten password.
    /// The account is restricted after a password reset proven with one element: payments and
    /// changes wait until an operator lifts the restriction (`403`).
    public static let userRestricted = ProblemCode(rawValue: "user.restricted")
    /// An operator tried to lift a restriction before its cooling-off ended (`409`).
    public static let restrictionCoolingOff = ProblemCode(rawValue: "restriction.cooling_off")
    // The user's own account.
    /// The user has no such open session: ended already, or another user's (`404`).
    public static let sessionNotFound = ProblemCode(rawValue: "session.not_found")
    /// No open session or consent of the user names that partner (`404`).
    public static let partnerAccessNotFound = ProblemCode(rawValue: "partner.access_not_found")
    /// Nothing waits for a code: no new e-mail address, phone number or authenticator seed was
    /// asked for, or it was confirmed, cancelled, dropped or expired (`404`).
    public static let confirmationNothingPending = ProblemCode(rawValue: "confirmation.nothing_pending")
    /// The code does not confirm what waits; `remainingAttempts` says how many tries are left,
    /// and at none what waited is dropped (`422`).
    public static let confirmationCodeInvalid = ProblemCode(rawValue: "confirmation.code_invalid")
    // Partners.
    /// The webhook delivery was delivered, is being sent right now, or has not failed yet, so
    /// there is nothing to retry (`409`).
    public static let webhookNotRetryable = ProblemCode(rawValue: "webhook.not_retryable")
}
