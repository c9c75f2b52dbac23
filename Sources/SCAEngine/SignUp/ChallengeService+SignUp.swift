import Foundation
import Logging
import SCACore
import SCAStorage

// Sign-up or in: a sign-up challenge whose e-mail code was proven.
extension ChallengeService {
    /// Creates the user for the proven address (or takes the one a parallel sign-up of the same
    /// address created: the store's unique e-mail makes it exactly one), completes the challenge
    /// for it and answers `enrolment` with an enrolment token.
    /// - Throws: `Problem` 409 `enrolment.complete` when the address belongs to a user with a
    ///   second element by now (they sign in instead), or a closed challenge.
    func completeSignUp(_ claimed: ChallengeRecord, address: String, method: AuthenticationMethod) async throws -> ProofResponse {
        let user: UserRecord
        do {
            user = try await signUpUser(
                address: address, method: method, language: claimed.decoy?.language, challengeID: claimed.id)
        } catch {
            await releaseClaim(on: claimed.id)
            throw error
        }
        let reload = { [store] in
            guard let reloaded = try await store.challenge(id: claimed.id) else { throw Problem.challengeNotFound }
            return reloaded
        }
        return try await CompareAndSet.retrying(from: claimed, reload: reload) { challenge in
            if let closed = challenge.closedState(at: runtime.now()) {
                await releaseClaim(on: challenge.id)
                throw Problem.challengeClosed(closed)
            }
            var next = challenge
            next.pendingMethod = nil
            next.userID = user.id
            next.acceptedMethods = [method]
            next.rejectedMethods = []
            next.state = .completed
            next.completedAt = runtime.now()
            guard try await store.updateChallenge(next, expectedVersion: challenge.version) else { return nil }
            next.version += 1
            let issued = try await tokens.issueEnrolment(for: next, userID: user.id)
            logger.info("sign-up challenge completed", metadata: ["challenge": "\(next.id)"])
            await audit.record(
                .challengeCompleted, outcome: "enrolment", userID: user.id, challengeID: next.id,
                operation: next.operation, details: ["methods": method.rawValue])
            return ProofResponse(satisfiedCategories: [method.category], tokens: issued, status: .enrolment)
        }
    }

    /// The new user, verified by the code just proven: e-mail codes on, nothing else enrolled;
    /// or, for a phone (`method` `sms_otp`), that number as login phone and SMS phone, with the
    /// placeholder e-mail the schema needs (``SignUpSettings/placeholderEmail(forPhone:)``).
    /// Of parallel sign-ups of one address one insert lands; the others find its user, which
    /// still awaits its second element, and enrol it too (they proved the same mailbox).
    /// - Parameter language: the language the sign-up asked for (`de`), stored as the new
    ///   user's `locale`; a user found instead keeps what they have.
    private func signUpUser(
        address: String, method: AuthenticationMethod, language: String?, challengeID: String
    ) async throws -> UserRecord {
        let byPhone = method == .smsOTP
        let profile = UserProfile(locale: language)
        let candidate = byPhone
            ? UserRecord(
                id: runtime.makeID(prefix: "usr"), email: SignUpSettings.placeholderEmail(forPhone: address), phone: address,
                createdAt: runtime.now(), profile: profile, loginPhone: address)
            : UserRecord(
                id: runtime.makeID(prefix: "usr"), email: address, emailOTPEnabled: true, createdAt: runtime.now(),
                profile: profile)
        do {
            try await store.createUser(candidate)
            await audit.record(
                .signUpUserCreated, userID: candidate.id, challengeID: challengeID, method: method,
                details: ["methods": method.rawValue])
            return candidate
        } catch StoreError.conflict {
            let found = byPhone ? try await store.user(loginPhone: address) : try await store.user(email: address)
            guard let existing = found else { throw Problem.contention }
            guard try await awaitsSecondElement(existing) else { throw Problem.enrolmentComplete }
            return existing
        }
    }

    /// Whether `user` has nothing but a proven mailbox (``UserRecord/awaitsSecondElement(activeDevices:passkeys:)``).
    func awaitsSecondElement(_ user: UserRecord) async throws -> Bool {
        guard user.awaitsSecondElement(activeDevices: 0, passkeys: 0) else { return false }
        let devices = try await store.devices(userID: user.id).filter { $0.status != .removed }.count
        let passkeys = try await store.passkeys(userID: user.id).count
        return user.awaitsSecondElement(activeDevices: devices, passkeys: passkeys)
    }

    /// Ends the claim of a proof that did not complete the sign-up. Best effort.
    private func releaseClaim(on challengeID: String) async {
        await releaseClaim(on: challengeID) { $0 != nil }
    }
}
