import Foundation
import Logging
import SCACore
import SCAStorage

/// A forgotten password, replaced without it: the user completes a `password_reset` challenge
/// (which offers no knowledge element) and sets a new password with its token. What the proofs
/// earn is ``PasswordResetPlan``'s decision: two categories other than knowledge (or a code
/// and the recovery sheet) reset in full; one element leaves the account restricted, so a
/// mailbox alone never moves money. Either way every session ends and the user is alerted on
/// every channel.
package struct PasswordResetService: EngineService, Sendable {
    package let context: EngineContext
    let tokens: TokenService
    let recovery: RecoveryService
    let alerts: SecurityAlerts
    let hasher: PasswordHasher
    let hashing: PasswordHashingPool

    /// `POST /v1/password-reset`. Everything is checked before anything is used: a bad
    /// password, a sheet given where it cannot count, or a token of another operation changes
    /// nothing and leaves the token usable.
    /// - Throws: `Problem` 400 (`request.invalid`, `recovery.failed` with attempts left), 401
    ///   (`auth.unauthorized`, `token.invalid`, also for a token used before), 403
    ///   (`auth.forbidden` for a token of another operation, `token.delegated`), 423
    ///   `recovery.locked`.
    package func reset(_ request: PasswordResetRequest, authorization: String?) async throws -> PasswordResetResponse {
        if let problem = InputRules.passwordProblem(request.password) { throw Problem.invalidRequest(problem) }
        let sheet = try Self.sheet(request)
        let claims: AccessTokenClaims
        do {
            claims = try await tokens.authorize(authorization, for: [.passwordReset], consume: false)
        } catch let problem as Problem where problem.code == .forbidden {
            throw problem.saying("A new password needs the token of a completed password_reset challenge.")
        }
        let userVerified = configuration.webauthnUserVerifiedCategory
        if sheet != nil {
            // The sheet completes a reset proven with a code sent to the user, and nothing
            // else: a PUK is never burnt for nothing.
            guard PasswordResetPlan.outcome(amr: claims.amr, userVerifiedCategory: userVerified, sheetRedeemed: false) == .restricted,
                claims.amr.contains(where: \.isDeliveredCode)
            else { throw Problem.invalidRequest("recoveryCode and puk only complete a reset proven with an e-mail or SMS code alone") }
        }
        let earned = PasswordResetPlan.outcome(amr: claims.amr, userVerifiedCategory: userVerified, sheetRedeemed: sheet != nil)
        guard let user = try await store.user(id: claims.sub.value) else { throw Problem.userNotFound }

        var redeemed: (puk: PasswordReset.RedeemedPUK, puksLeft: Int)?
        if let sheet { redeemed = try await recovery.redeem(code: sheet.code, puk: sheet.puk, of: user) }
        let now = runtime.now()
        let completion: PasswordResetCompletion
        let restrictedUntil = earned == .restricted ? now.addingTimeInterval(TimeInterval(configuration.passwordResetCoolingOff)) : nil
        do {
            let hasher = self.hasher
            let password = request.password
            let hash = try await hashing.run(.hash) { try hasher.hash(password) }
            try await tokens.consume(claims)
            completion = try await store.resetPassword(
                PasswordReset(userID: user.id, passwordHash: hash, restrictedUntil: restrictedUntil, redeemedPUK: redeemed?.puk, now: now))
        } catch {
            if let redeemed { try? await recovery.release(redeemed.puk.codeDigest) }
            if case StoreError.notFound = error { throw Problem.userNotFound }
            throw error
        }
        guard case .reset(let sessionsEnded) = completion else {
            // The PUK was burnt meanwhile by a parallel reset or recovery: a failed attempt.
            throw await recovery.failed(user, codeDigest: redeemed?.puk.codeDigest ?? [], now: now)
        }
        return await finished(
            user, outcome: earned, restrictedUntil: restrictedUntil, sessionsEnded: sessionsEnded, amr: claims.amr,
            puksLeft: redeemed?.puksLeft)
    }

    /// `DELETE /admin/v1/users/{id}/restriction` and the console: an operator lifts a
    /// restriction once its cooling-off is over, never before.
    /// - Throws: `Problem` 404 (`user.not_found`, or `not_found` when the user is not
    ///   restricted), 409 `restriction.cooling_off` with the time left.
    package func liftRestriction(userID: String) async throws {
        guard let user = try await store.user(id: userID) else { throw Problem.userNotFound }
        guard let until = user.restrictedUntil else { throw Problem.restrictionNotFound }
        let now = runtime.now()
        guard now >= until else { throw Problem.restrictionCoolingOff(until: until, now: now) }
        // A reset meanwhile set another restriction: the operator looks at the account again.
        guard try await store.liftRestriction(userID: user.id, restrictedUntil: until) else { throw Problem.contention }
        logger.notice("restriction lifted", metadata: ["user": "\(user.id)"])
        await audit.record(.restrictionLifted, userID: user.id)
        await alerts.send(.restrictionLifted, to: user)
    }

    private func finished(
        _ user: UserRecord, outcome: PasswordResetPlan.Outcome, restrictedUntil: Date?, sessionsEnded: Int,
        amr: [AuthenticationMethod], puksLeft: Int?
    ) async -> PasswordResetResponse {
        let wire: PasswordResetOutcome = outcome == .complete ? .complete : .restricted
        logger.notice("password reset", metadata: ["user": "\(user.id)", "outcome": "\(wire.rawValue)"])
        var details = ["methods": amr.map(\.rawValue).joined(separator: " "), "sessionsEnded": String(sessionsEnded)]
        if let restrictedUntil { details["restrictedUntil"] = ISO8601DateFormatter().string(from: restrictedUntil) }
        if let puksLeft { details["puksLeft"] = String(puksLeft) }
        await audit.record(.passwordReset, outcome: wire.rawValue, userID: user.id, details: details)
        if let restrictedUntil {
            await alerts.send(.passwordResetRestricted(until: restrictedUntil), to: user)
        } else {
            await alerts.send(.passwordReset, to: user)
        }
        return PasswordResetResponse(
            outcome: wire, restrictedUntil: restrictedUntil, sessionsEnded: sessionsEnded, puksLeft: puksLeft)
    }

    /// The recovery sheet's code and PUK, both or neither; a mistyped one (its checksum, its
    /// length) costs no attempt, as in a recovery.
    private static func sheet(_ request: PasswordResetRequest) throws -> (code: ActivationCode, puk: RecoveryPUK)? {
        switch (request.recoveryCode, request.puk) {
        case (nil, nil): return nil
        case (let code?, let puk?):
            guard let code = ActivationCode(code), let puk = RecoveryPUK(puk) else { throw Problem.recoveryFailed(remaining: nil) }
            return (code, puk)
        default: throw Problem.invalidRequest("give both recoveryCode and puk, or neither")
        }
    }
}
