import Foundation
import SCACore

/// The problems the server answers with, in one place so titles and statuses stay consistent.
extension Problem {
    package static func invalidRequest(_ detail: String) -> Problem {
        Problem(status: 400, code: .requestInvalid, title: "Invalid request", detail: detail)
    }

    static func tooLarge(limit: Int) -> Problem {
        Problem(status: 413, code: .requestTooLarge, title: "Request too large", detail: "Bodies are limited to \(limit) bytes.")
    }

    package static let notFound = Problem(status: 404, code: .notFound, title: "Not found")
    static let challengeNotFound = Problem(status: 404, code: .challengeNotFound, title: "Challenge not found")
    static let userNotFound = Problem(status: 404, code: .userNotFound, title: "User not found")

    static func challengeClosed(_ state: ChallengeState) -> Problem {
        switch state {
        case .completed: Problem(status: 409, code: .challengeCompleted, title: "Challenge already completed")
        case .cancelled: Problem(status: 409, code: .challengeCancelled, title: "Challenge cancelled")
        case .failed: Problem(status: 409, code: .challengeFailed, title: "Challenge failed")
        case .expired, .pending: Problem(status: 409, code: .challengeExpired, title: "Challenge expired")
        }
    }

    static func methodNotOffered(_ method: AuthenticationMethod) -> Problem {
        Problem(
            status: 422, code: .methodNotOffered, title: "Method not offered",
            detail: "\(method.rawValue) is not offered by this challenge.")
    }

    static func proofRejected(remaining: Int) -> Problem {
        Problem(
            status: 401, code: .proofRejected, title: "Proof rejected", remainingAttempts: remaining)
    }

    static func authenticationFailed(remaining: Int) -> Problem {
        Problem(
            status: 401, code: .authenticationFailed, title: "Authentication failed",
            detail: "One or more elements were wrong; all collected proofs were discarded.",
            remainingAttempts: remaining)
    }

    /// `until` nil: permanent.
    static func userLocked(until: Date?, now: Date) -> Problem {
        guard let until else {
            return Problem(
                status: 423, code: .userLocked, title: "User locked",
                detail: "Too many failed attempts; the account is blocked until an operator unblocks it.",
                remainingAttempts: 0)
        }
        let seconds = max(1, Int(until.timeIntervalSince(now).rounded(.up)))
        return Problem(
            status: 423, code: .userLocked, title: "User locked",
            detail: "Too many failed attempts; try again later.", remainingAttempts: 0, retryAfter: seconds)
    }

    static let attemptsInProgress = Problem(
        status: 429, code: .attemptsInProgress, title: "Attempts in progress",
        detail: "Other attempts for this user are being checked; try again shortly.", retryAfter: 1)

    static func resendTooSoon(retryAfter: Int) -> Problem {
        Problem(status: 429, code: .otpResendTooSoon, title: "Code sent recently", retryAfter: retryAfter)
    }

    static let sendLimit = Problem(
        status: 429, code: .otpSendLimit, title: "Send limit reached",
        detail: "No more codes can be sent for this challenge; start a new one.")

    static let userExists = Problem(status: 409, code: .userExists, title: "User exists")

    package static let unauthorized = Problem(status: 401, code: .unauthorized, title: "Unauthorized")
    /// 403, not 401: no `Authorization` header can make up for a certificate missing from the
    /// connection.
    static let clientCertificateRequired = Problem(
        status: 403, code: .clientCertificateRequired, title: "Client certificate required",
        detail: "The admin API needs a client certificate verified by this server's certificate authorities (mutual TLS).")

    package static let tokenInvalid = Problem(status: 401, code: .tokenInvalid, title: "Invalid token")
    static let tokenReused = Problem(
        status: 401, code: .tokenReused, title: "Refresh token reused",
        detail: "The refresh token had been used before; its session has been revoked.")
    static let sessionExpired = Problem(status: 401, code: .sessionExpired, title: "Session ended")

    /// Too many concurrent updates of one record, or no free identifier; rare, and safe to retry.
    static let contention = Problem(
        status: 503, code: .serverBusy, title: "Busy", detail: "Too many concurrent updates; try again.", retryAfter: 1)

    /// How ``PasswordHashingBusy`` is answered: too many password or PIN checks waiting for
    /// the hashing pool; nothing was evaluated.
    static let passwordHashingBusy = Problem(
        status: 503, code: .serverBusy, title: "Busy",
        detail: "Too many password checks in progress; try again shortly.", retryAfter: 1)

    static func categoriesUnavailable(required: Int) -> Problem {
        Problem(
            status: 422, code: .categoriesUnavailable, title: "More categories needed",
            detail: "This operation needs \(required) categories; name a device with a biometry key to prove inherence.")
    }

    static func activationCodeInvalid(remaining: Int? = nil) -> Problem {
        Problem(
            status: 400, code: .activationCodeInvalid, title: "Activation code not valid",
            detail: "The code is unknown, used, expired or mistyped.", remainingAttempts: remaining)
    }

    static let deviceProofInvalid = Problem(
        status: 400, code: .deviceProofInvalid, title: "Proof of possession failed",
        detail: "proof must be a signature by possessionKey over sca-v1|activation|<activation code>.")
    static let deviceLimitReached = Problem(
        status: 409, code: .deviceLimitReached, title: "Too many devices",
        detail: "Remove a device before activating another.")
    static let deviceNotFound = Problem(status: 404, code: .deviceNotFound, title: "Device not found")

    /// A device that can no longer sign: blocked after wrong signatures, or removed.
    static func deviceUnusable(_ status: DeviceStatus) -> Problem {
        status == .removed
            ? Problem(status: 403, code: .deviceRemoved, title: "Device removed", detail: "Activate the device again.")
            : Problem(status: 403, code: .deviceBlocked, title: "Device blocked", detail: "Too many wrong signatures; ask for it to be unblocked.")
    }

    static let forbidden = Problem(status: 403, code: .forbidden, title: "Forbidden", detail: "The token does not allow this.")

    package static let internalError = Problem(status: 500, code: .internalError, title: "Internal error")

    // Send and challenge budgets.

    /// A budget across challenges is spent (codes per destination, user, client address or
    /// server; challenges per client address). Nothing was sent or opened. The detail never
    /// says which budget: the answer is the same for every user, known or not.
    /// A partner client whose secret failed too often lately (counted per client): refused
    /// before its secret counts, right or wrong.
    package static func clientThrottled(retryAfter seconds: TimeInterval) -> Problem {
        Problem(
            status: 429, code: .rateLimited, title: "Too many requests",
            detail: "Too many failed client authentications; try again later.", retryAfter: max(1, Int(seconds.rounded(.up))))
    }

    static func rateLimited(retryAfter: Int) -> Problem {
        Problem(
            status: 429, code: .rateLimited, title: "Too many requests",
            detail: "Too many codes or challenges were asked for; try again later.", retryAfter: retryAfter)
    }

    // Proofs checked one at a time, one proof per category in a deferred round, replays.

    /// Another proof for the challenge is being checked; nothing was evaluated or counted.
    static let proofInProgress = Problem(
        status: 409, code: .proofInProgress, title: "Proof in progress",
        detail: "Another proof for this challenge is being checked; send this one when it is answered.", retryAfter: 1)

    /// Deferred verdict: the round holds a proof of this category already; nothing was
    /// evaluated or counted (a round is one attempt, so it takes one guess per element).
    static func categoryAlreadyCollected(_ category: Category) -> Problem {
        Problem(
            status: 409, code: .categoryAlreadyCollected, title: "Category already collected",
            detail: "This round holds a \(category.rawValue) proof already; it is judged with the others.")
    }

    /// A right one-time code (or signature) presented again: refused, and not counted as a guess.
    static let codeAlreadyUsed = Problem(
        status: 409, code: .codeAlreadyUsed, title: "Code already used",
        detail: "This code was used already; a code is accepted once.")
}

// HTTP contract.
extension Problem {
    static let methodNotAllowed = Problem(status: 405, code: .methodNotAllowed, title: "Method not allowed")

    static let unsupportedMediaType = Problem(
        status: 415, code: .unsupportedMediaType, title: "Unsupported media type",
        detail: "The body must be application/json.")

    static let transactionRequired = Problem(
        status: 400, code: .transactionRequired, title: "Transaction required",
        detail: "consume: true needs the transaction the token was issued for.")

    // Scoped admin keys and operators.

    /// A scoped admin key without the scope a route needs.
    static func adminScopeMissing(_ scope: AdminScope, keyName: String) -> Problem {
        Problem(
            status: 403, code: .forbidden, title: "Forbidden",
            detail: "The admin key \(keyName) lacks the scope \(scope.rawValue).")
    }

    /// An operator's token that may not use an admin route, saying what is missing.
    static func operatorRefused(_ refusal: OperatorStepUp.Refusal) -> Problem {
        let detail: String
        switch refusal {
        case .missingPermission(let scope):
            detail = "Your roles do not grant the permission \(scope.rawValue)."
        case .notStrong:
            detail = "The admin API needs a token obtained with strong customer authentication (acr psd2.sca); authenticate again."
        case .tooOld:
            detail = "The admin API needs an authentication at most 5 minutes old; authenticate again."
        }
        return Problem(status: 403, code: .forbidden, title: "Forbidden", detail: detail)
    }

    /// A user's token whose roles grant no admin scope at all.
    static let noAdminPermission = Problem(
        status: 403, code: .forbidden, title: "Forbidden", detail: "Your roles grant no admin permission.")
}

// Risk engine and exemptions.
extension Problem {
    /// Says only that monitoring refused, never which list matched.
    static let riskRefused = Problem(
        status: 403, code: .riskRefused, title: "Refused by transaction monitoring",
        detail: "This operation cannot be authorised. Contact your bank.")

    static let beneficiaryNotFound = Problem(status: 404, code: .beneficiaryNotFound, title: "Beneficiary not found")

    static let beneficiaryLimitReached = Problem(
        status: 409, code: .beneficiaryLimitReached, title: "Too many trusted beneficiaries",
        detail: "Remove a trusted beneficiary before adding another.")

    static let fraudReportDuplicate = Problem(
        status: 409, code: .fraudReportDuplicate, title: "Reported already",
        detail: "This transaction was reported fraudulent already; it counts once.")
}

// Partner clients and consents.
extension Problem {
    package static let clientNotFound = Problem(status: 404, code: .clientNotFound, title: "Partner client not found")
    package static let consentNotFound = Problem(status: 404, code: .consentNotFound, title: "Consent not found")

    package static func consentClosed(_ status: ConsentStatus) -> Problem {
        Problem(
            status: 409, code: .consentClosed, title: "Consent closed",
            detail: "The consent is \(status.rawValue); this change is not possible any more.")
    }

    package static let consentRedirectNotRegistered = Problem(
        status: 400, code: .consentRedirectNotRegistered, title: "Redirect not registered",
        detail: "consentRedirectUrl must be one of the client's registered consent redirect URIs.")
    // Passkeys.
    static let passkeyUnavailable = Problem(
        status: 404, code: .passkeyUnavailable, title: "Passkeys unavailable",
        detail: "This server has no WebAuthn relying party configured.")
    /// One generic refusal: the audit trail names the check that failed.
    static let passkeyInvalid = Problem(
        status: 400, code: .passkeyInvalid, title: "Passkey refused", detail: "The passkey response did not verify.")
    static let passkeyChallengeInvalid = Problem(
        status: 400, code: .passkeyChallengeInvalid, title: "Registration challenge invalid",
        detail: "Ask for new registration options.")
    static let passkeyAlreadyRegistered = Problem(
        status: 409, code: .passkeyAlreadyRegistered, title: "Passkey already registered")
    static let passkeyLimitReached = Problem(
        status: 409, code: .passkeyLimitReached, title: "Too many passkeys", detail: "Remove a passkey before adding another.")
    static let passkeyNotFound = Problem(status: 404, code: .passkeyNotFound, title: "Passkey not found")
}

// Sign-up or in.
extension Problem {
    static let enrolmentOnly = Problem(
        status: 403, code: .enrolmentOnly, title: "Enrolment token",
        detail: "An enrolment token can only add a second element (POST /v1/me/enrolment); sign in with strong customer authentication for anything else.")
    static let enrolmentComplete = Problem(
        status: 409, code: .enrolmentComplete, title: "Enrolment complete",
        detail: "This user has a second element already; sign in with strong customer authentication to change it.")
}

// Delegated tokens (``TokenAccess``).
extension Problem {
    /// The refusal ``TokenAccess`` decided, as the problem the route answers.
    static func tokenRefused(_ refusal: TokenAccess.Refusal) -> Problem {
        switch refusal {
        case .delegatedToken:
            Problem(
                status: 403, code: .tokenDelegated, title: "Partner token",
                detail: "This token was issued to a partner application; it cannot be used on the bank's own API.")
        case .notDelegated:
            Problem(
                status: 403, code: .tokenNotDelegated, title: "Not a partner token",
                detail: "This route answers for a partner application's grant; present the token issued to it.")
        case .scopeMissing(let scope):
            Problem(
                status: 403, code: .tokenScopeMissing, title: "Scope missing",
                detail: "The token was not granted the scope \(scope).")
        }
    }

    /// - Parameter what: the operation as the partner named it.
    static func operationNotGrantable(_ what: String) -> Problem {
        Problem(
            status: 403, code: .operationNotGrantable, title: "Not grantable to a partner",
            detail: "\(what) cannot be asked of a user by a partner: binding a device or a passkey and changing credentials, e-mail or phone are the user's own, in the bank's app.")
    }
}

// One client cannot take every connection.
extension Problem {
    /// `429 rate.limited`: the client's address has `maxConnectionsPerAddress` requests in
    /// flight already (behind `trustedProxyHeader`). Nothing was done.
    static let tooManyRequestsFromAddress = Problem(
        status: 429, code: .rateLimited, title: "Too many requests",
        detail: "Too many requests from this address at once (maxConnectionsPerAddress); try again later.", retryAfter: 1)
}

extension Problem {
    /// The same problem with `detail` saying why, for a refusal whose reason helps the caller's
    /// developer and tells an attacker nothing new.
    func saying(_ detail: String) -> Problem {
        var problem = self
        problem.detail = detail
        return problem
    }
}

// Recovery after a lost phone.
extension Problem {
    /// Never says which proof was wrong: the code, the PUK and the knowledge element fail alike.
    static func recoveryFailed(remaining: Int?) -> Problem {
        Problem(
            status: 400, code: .recoveryFailed, title: "Recovery failed",
            detail: "The recovery code, the PUK or the password or PIN is not right.", remainingAttempts: remaining)
    }

    static let recoveryProofInvalid = Problem(
        status: 400, code: .deviceProofInvalid, title: "Proof of possession failed",
        detail: "proof must be a signature by possessionKey over sca-v1|recovery|<recovery code>|<PUK digits>.")

    static let recoverySheetUsedUp = Problem(
        status: 400, code: .recoveryFailed, title: "Recovery failed",
        detail: "This recovery sheet has no PUK left; ask your bank for help.")

    static func recoveryLocked(until: Date?, now: Date) -> Problem {
        guard let until else {
            return Problem(
                status: 423, code: .recoveryLocked, title: "Recovery locked",
                detail: "Too many failed recoveries; this sheet is blocked until a new one is issued.", remainingAttempts: 0)
        }
        return Problem(
            status: 423, code: .recoveryLocked, title: "Recovery locked",
            detail: "Too many failed recoveries; try again later.", remainingAttempts: 0,
            retryAfter: max(1, Int(until.timeIntervalSince(now).rounded(.up))))
    }

    static let recoverySheetNotFound = Problem(
        status: 404, code: .recoverySheetNotFound, title: "No recovery sheet",
        detail: "Issue one with POST /v1/me/recovery-sheet and a settings_change token.")
}

// A forgotten password.
extension Problem {
    /// The same words whatever the cooling-off: when it ends matters to the operator who lifts it.
    static let userRestricted = Problem(
        status: 403, code: .userRestricted, title: "Account restricted",
        detail: "The password was reset without a second element: payments and changes wait until your bank lifts the restriction.")

    static func restrictionCoolingOff(until: Date, now: Date) -> Problem {
        Problem(
            status: 409, code: .restrictionCoolingOff, title: "Cooling-off not over",
            detail: "The restriction can be lifted from \(ISO8601DateFormatter().string(from: until)) on, once the real owner has had time to object.",
            retryAfter: max(1, Int(until.timeIntervalSince(now).rounded(.up))))
    }

    static let restrictionNotFound = Problem(
        status: 404, code: .notFound, title: "Not found", detail: "This user is not restricted.")
}
