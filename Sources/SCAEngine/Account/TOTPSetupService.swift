import Foundation
import SCACore
import SCAStorage

/// The user's own authenticator app: a new seed behind a `settings_change` token of its own,
/// shown once (as text and as a QR code), that replaces the account's TOTP only when a first
/// code of the app comes back. Then the user is alerted on every channel, as for an operator's
/// enrolment.
package struct TOTPSetupService: EngineService, Sendable {
    package let context: EngineContext
    let tokens: TokenService
    let users: UserService
    let alerts: SecurityAlerts

    /// How long a seed waits for its first code: long enough to find the phone and the app.
    static let lifetime: TimeInterval = 600
    static let confirmOperations: Set<OperationKind> = [.login, .accountInfo, .settingsChange]

    /// `POST /v1/me/totp`: a new seed, spending the `settings_change` token.
    /// - Throws: `Problem` 401/403 for the token, 403 `user.restricted`.
    package func start(authorization: String?) async throws -> TOTPSetupResponse {
        let claims = try await tokens.authorize(authorization, for: [.settingsChange], consume: false)
        try await refuseIfRestricted(claims.sub.value)
        try await tokens.consume(claims)
        return try await start(userID: claims.sub.value)
    }

    /// A new seed for `userID`, replacing one that waited.
    package func start(userID: String) async throws -> TOTPSetupResponse {
        guard let user = try await store.user(id: userID) else { throw Problem.userNotFound }
        let seed = runtime.random.bytes(20)
        let waiting = TOTPSetup.Pending(
            sealedSeed: try box.seal(seed, context: UserService.totpSealingContext),
            expiresAt: runtime.now().addingTimeInterval(Self.lifetime), failures: 0)
        try await store.updateRiskState(key: TOTPSetup.keyPrefix + userID, as: TOTPSetup.self) { $0.pending = waiting }
        await audit.record(.totpSetupStarted, userID: userID)
        return TOTPSetupResponse(
            secret: Base32.encode(seed),
            otpauthUri: TOTP.otpauthURI(secret: seed, account: UserService.totpAccount(of: user), issuer: users.issuer),
            expiresAt: waiting.expiresAt)
    }

    /// `POST /v1/me/totp/confirmation`: a code of the app for the new seed.
    /// - Throws: `Problem` 401/403 for the token, 400 for a code that is not six digits, 404
    ///   `confirmation.nothing_pending`, 422 `confirmation.code_invalid` with the tries left (at
    ///   none, the seed is dropped).
    package func confirm(_ request: TOTPConfirmationRequest, authorization: String?) async throws {
        let claims = try await tokens.authorize(authorization, for: Self.confirmOperations, consume: false)
        try await confirm(request, userID: claims.sub.value)
    }

    /// Confirms `userID`'s waiting seed with the typed code.
    package func confirm(_ request: TOTPConfirmationRequest, userID: String) async throws {
        let typed = request.code.trimmingCharacters(in: .whitespaces)
        guard InputRules.isDigits(typed, count: 6) else { throw Problem.invalidRequest("code: six digits") }
        try await refuseIfRestricted(userID)
        let box = self.box
        let now = runtime.now()
        let attempt = try await store.updateRiskState(key: TOTPSetup.keyPrefix + userID, as: TOTPSetup.self) { state in
            state.attempt(at: now) { waiting in
                guard let seed = try? box.open(waiting.sealedSeed, context: UserService.totpSealingContext) else { return false }
                return TOTP(secret: seed).matchingStep(for: typed, at: now, drift: 1) != nil
            }
        }
        switch attempt {
        case .nothingPending:
            throw Problem.confirmationNothingPending
        case .wrong(let remaining):
            await audit.record(.totpSetupRefused, outcome: "wrong_code", userID: userID, details: ["remaining": String(remaining)])
            throw Problem.confirmationCodeInvalid(remaining: remaining)
        case .exhausted:
            await audit.record(.totpSetupRefused, outcome: "dropped", userID: userID, details: ["remaining": "0"])
            throw Problem.confirmationCodeInvalid(remaining: 0)
        case .confirmed(let waiting):
            let enrolled = try await store.updateUser(id: userID, UserUpdate(sealedTOTPSeed: waiting.sealedSeed))
            await audit.record(.totpEnrolled, userID: userID)
            await alerts.send(.totpEnrolled, to: enrolled)
        }
    }

    /// Whether a seed waits for `userID` now.
    package func isWaiting(for userID: String) async throws -> Bool {
        let state = try await store.riskState(key: TOTPSetup.keyPrefix + userID, as: TOTPSetup.self)
        return state.pending.map { runtime.now() < $0.expiresAt } ?? false
    }
}
