import Foundation
import Logging
import SCACore
import SCAStorage

/// The way back in after a lost phone: a recovery sheet (a code and single-use PUKs, shown
/// once, stored as keyed digests) binds a new device when the user also proves a knowledge
/// element. Two categories, as the sign-in it restores: knowledge, and possession of the sheet.
///
/// A recovery removes every other device and ends every session (the lost phone's tokens stop
/// working), and the user is alerted on every channel. Failures count on the sheet's own
/// counters with the sign-in's rules (RTS art. 4(3)(b)): a block after 5, growing blocks, an
/// alert before the permanent one. A blocked user cannot recover: recovery restores a device,
/// never an account an operator has to unblock.
package struct RecoveryService: EngineService, Sendable {
    package let context: EngineContext
    let tokens: TokenService
    let verifier: FactorVerifier
    let alerts: SecurityAlerts

    /// PUKs on a sheet: ten recoveries before a new sheet is needed.
    static let pukCount = 10

    /// `POST /v1/me/recovery-sheet`: a new sheet, replacing the old one, with the token of a
    /// completed `settings_change` challenge (used once).
    /// - Throws: `Problem` 401 (`auth.unauthorized`, `token.invalid`), 403 `auth.forbidden`,
    ///   `token.delegated` for a partner's token.
    package func issueSheet(authorization: String?) async throws -> RecoverySheetResponse {
        let claims: AccessTokenClaims
        do {
            claims = try await tokens.authorize(authorization, for: [.settingsChange], consume: false)
        } catch let problem as Problem where problem.code == .forbidden {
            var named = problem
            named.detail = "Issuing a recovery sheet needs the token of a completed settings_change challenge."
            throw named
        }
        guard let user = try await store.user(id: claims.sub.value) else { throw Problem.userNotFound }
        try await tokens.consume(claims)
        return try await issueSheet(for: user)
    }

    /// A new sheet for `user`, replacing the old one: recorded as `recovery.sheet_issued` and
    /// alerted, since a sheet is a credential that can bind a device.
    /// - Throws: `Problem.userNotFound`.
    package func issueSheet(for user: UserRecord) async throws -> RecoverySheetResponse {
        let now = runtime.now()
        // An 80-bit code clashes with another sheet's practically never; a clash draws again.
        for _ in 0..<4 {
            let code = ActivationCode.generate(using: runtime.random)
            let puks = (0..<Self.pukCount).map { _ in RecoveryPUK.generate(using: runtime.random) }
            let sheet = RecoverySheetRecord(
                userID: user.id, codeDigest: digest(code), pukDigests: puks.map(digest), createdAt: now)
            do {
                try await store.replaceRecoverySheet(sheet)
            } catch StoreError.conflict {
                continue
            } catch StoreError.notFound {
                throw Problem.userNotFound
            }
            logger.info("recovery sheet issued", metadata: ["user": "\(user.id)"])
            await audit.record(.recoverySheetIssued, userID: user.id, details: ["puks": String(puks.count)])
            await alerts.send(.recoverySheetIssued, to: user)
            return RecoverySheetResponse(recoveryCode: code.description, puks: puks.map(\.description), issuedAt: now)
        }
        throw Problem.contention
    }

    /// `GET /v1/me/recovery-sheet`: what is left of the sheet, with a signed-in user's token.
    /// - Throws: `Problem.recoverySheetNotFound` when the user has none.
    package func sheetStatus(authorization: String?) async throws -> RecoverySheetStatusResponse {
        let claims = try await tokens.authorize(authorization, for: [.login, .accountInfo, .settingsChange], consume: false)
        guard let status = try await sheetStatus(of: claims.sub.value) else { throw Problem.recoverySheetNotFound }
        return status
    }

    /// What is left of the user's sheet; nil when they have none.
    package func sheetStatus(of userID: String) async throws -> RecoverySheetStatusResponse? {
        try await store.recoverySheet(userID: userID).map { Self.describe($0, now: runtime.now()) }
    }

    /// What a sheet's owner (and an export of their data) is shown: never its code or a PUK.
    static func describe(_ sheet: RecoverySheetRecord, now: Date) -> RecoverySheetStatusResponse {
        let blocked = sheet.lockout.isBlocked(at: now)
        return RecoverySheetStatusResponse(
            issuedAt: sheet.createdAt, puksLeft: sheet.puksLeft, nextPUK: sheet.puksLeft > 0 ? sheet.usedPUKs + 1 : nil,
            locked: blocked, lockedUntil: blocked && !sheet.lockout.permanentlyLocked ? sheet.lockout.lockedUntil : nil)
    }

    /// `POST /v1/recovery`: binds a new device with the sheet and a knowledge element. Every
    /// field and the new key's proof are checked before anything is counted, so bad input
    /// changes nothing.
    /// - Throws: `Problem` 400 (`request.invalid`, `device.proof_invalid`, `recovery.failed`
    ///   with the attempts left), 423 (`recovery.locked`, `user.locked`), 429
    ///   `sca.attempts_in_progress`.
    package func recover(_ request: RecoveryRequest) async throws -> RecoveryResponse {
        let name = try DeviceService.displayText(request.name, field: "name", maxLength: DisplayText.maxDeviceNameLength)
        let platform = try DeviceService.displayText(request.platform, field: "platform", maxLength: DisplayText.maxPlatformLength)
        let possessionKey = try DeviceService.publicKey(request.possessionKey, field: "possessionKey")
        let biometryKey = try request.biometryKey.map { try DeviceService.publicKey($0, field: "biometryKey") }
        guard let secret = request.password ?? request.pin, (request.password == nil) != (request.pin == nil) else {
            throw Problem.invalidRequest("give exactly one of password and pin")
        }
        guard secret.utf8.count <= InputRules.maxCredentialLength else { throw Problem.invalidRequest("password or pin too long") }
        // A mistyped code (its checksum) or PUK costs no attempt, as a mistyped activation code.
        guard let code = ActivationCode(request.recoveryCode), let puk = RecoveryPUK(request.puk) else {
            throw Problem.recoveryFailed(remaining: nil)
        }
        guard let proof = Base64URL.decode(request.proof), proof.count == 64 else {
            throw Problem.invalidRequest("proof must be a 64-byte raw ECDSA signature in base64url")
        }
        guard DeviceSignature.isValid(
            signature: proof, over: DeviceSignature.recoveryPayload(code: code, puk: puk), publicKey: possessionKey)
        else { throw Problem.recoveryProofInvalid }

        let codeDigest = digest(code)
        let now = runtime.now()
        let sheet = try await reserve(codeDigest, now: now)
        guard let nextPUK = sheet.nextPUKDigest, let user = try await store.user(id: sheet.userID) else {
            try await release(codeDigest)
            throw Problem.recoverySheetUsedUp
        }
        if user.lockout.isBlocked(at: now) {
            try await release(codeDigest)
            throw Problem.userLocked(until: user.lockout.permanentlyLocked ? nil : user.lockout.lockedUntil, now: now)
        }
        if user.isRestricted {
            // Binding a device is a change a restricted account waits for the bank to allow.
            try await release(codeDigest)
            throw Problem.userRestricted
        }
        // Both proofs are judged, whatever the first gave, so the time says nothing of which failed.
        let knowledgeRight: Bool
        do {
            knowledgeRight = try await verifier.verifyKnowledge(
                secret, against: request.password != nil ? user.passwordHash : user.pinHash)
        } catch {
            try await release(codeDigest)
            throw error
        }
        let pukRight = ConstantTime.equals(digest(puk), nextPUK)
        if knowledgeRight, pukRight {
            let device = DeviceRecord(
                id: runtime.makeID(prefix: "dev"), userID: user.id, name: name, platform: platform,
                possessionKey: possessionKey, biometryKey: biometryKey, createdAt: now)
            let completion: RecoveryCompletion
            do {
                completion = try await store.completeRecovery(
                    codeDigest: codeDigest, usedPUKs: sheet.usedPUKs, device: device, now: now)
            } catch StoreError.conflict {
                try await release(codeDigest)
                throw Problem.contention  // a device id drawn twice: the PUK is still unused, retry
            }
            if case .recovered(let bound, let removed, let ended) = completion {
                return await recovered(user, device: bound, devicesRemoved: removed, sessionsEnded: ended, puksLeft: sheet.puksLeft - 1)
            }
            // The PUK was burnt meanwhile by a parallel recovery: this one is a failure.
        }
        throw await failed(user, codeDigest: codeDigest, now: now)
    }

    /// For a password reset: checks the sheet's code and its next PUK for `user`, a wrong PUK
    /// counted on the sheet as a failed recovery. The attempt stays reserved until the reset
    /// that burns the PUK (``SCAStore/resetPassword(_:)``) clears it, or ``release(_:)`` gives
    /// it back.
    /// - Throws: `Problem` 400 `recovery.failed` (another user's code too, never saying so),
    ///   423 `recovery.locked`, 429 `sca.attempts_in_progress`.
    /// - Returns: the PUK to burn, and how many the sheet has left once it is.
    func redeem(code: ActivationCode, puk: RecoveryPUK, of user: UserRecord) async throws
        -> (puk: PasswordReset.RedeemedPUK, puksLeft: Int)
    {
        let codeDigest = digest(code)
        let now = runtime.now()
        let sheet = try await reserve(codeDigest, now: now)
        guard sheet.userID == user.id, let nextPUK = sheet.nextPUKDigest else {
            try await release(codeDigest)
            throw sheet.userID == user.id ? Problem.recoverySheetUsedUp : Problem.recoveryFailed(remaining: nil)
        }
        guard ConstantTime.equals(digest(puk), nextPUK) else { throw await failed(user, codeDigest: codeDigest, now: now) }
        return (PasswordReset.RedeemedPUK(codeDigest: codeDigest, usedPUKs: sheet.usedPUKs), sheet.puksLeft - 1)
    }

    /// The sheet whose code has `codeDigest`, with one attempt reserved on its counters.
    private func reserve(_ codeDigest: [UInt8], now: Date) async throws -> RecoverySheetRecord {
        let policy = configuration.lockout
        guard let (sheet, reservation) = try await store.updateRecoveryLockout(
            codeDigest: codeDigest, { $0.reserveAttempt(policy: policy, now: now) })
        else {
            // An unknown code: its 80 random bits are not found by trying, so no counter is kept
            // for it; each try is in the trail, where a burst of them shows.
            await audit.record(.recoveryFailed, outcome: "unknown_code")
            throw Problem.recoveryFailed(remaining: nil)
        }
        switch reservation {
        case .granted: return sheet
        case .locked(let until): throw Problem.recoveryLocked(until: until, now: now)
        case .saturated: throw Problem.attemptsInProgress
        }
    }

    private func recovered(
        _ user: UserRecord, device: DeviceRecord, devicesRemoved: Int, sessionsEnded: Int, puksLeft: Int
    ) async -> RecoveryResponse {
        logger.notice("account recovered", metadata: ["user": "\(user.id)", "device": "\(device.id)"])
        await audit.record(
            .recoveryCompleted, userID: user.id, deviceID: device.id,
            details: [
                "platform": device.platform, "devicesRemoved": String(devicesRemoved), "sessionsEnded": String(sessionsEnded),
                "puksLeft": String(puksLeft),
            ])
        await alerts.send(.recoveryUsed(deviceName: device.name), to: user)
        return RecoveryResponse(
            deviceId: device.id, userId: user.id, status: device.status, devicesRemoved: devicesRemoved,
            sessionsEnded: sessionsEnded, puksLeft: puksLeft)
    }

    /// Keeps the reserved attempt counted; a block it starts is recorded and, from the last
    /// temporary block on, alerted (the user hears before the permanent one).
    func failed(_ user: UserRecord, codeDigest: [UInt8], now: Date) async -> Problem {
        let policy = configuration.lockout
        let outcome: FailureOutcome
        do {
            guard let (_, recorded) = try await store.updateRecoveryLockout(
                codeDigest: codeDigest, { $0.recordFailure(policy: policy, now: now) })
            else { return Problem.recoveryFailed(remaining: nil) }  // the sheet was replaced meanwhile
            outcome = recorded
        } catch {
            logger.error("recovery failure not counted", metadata: ["user": "\(user.id)", "error": "\(type(of: error))"])
            return Problem.serverUnavailable
        }
        switch outcome {
        case .counted(let remaining):
            await audit.record(.recoveryFailed, outcome: "failure", userID: user.id, details: ["remaining": String(remaining)])
            return Problem.recoveryFailed(remaining: remaining)
        case .temporarilyBlocked(let until, let block):
            await audit.record(.recoveryFailed, outcome: "failure", userID: user.id, details: ["remaining": "0"])
            if until == now.addingTimeInterval(policy.blockDuration(forBlock: block)) {
                await audit.record(
                    .recoveryLocked, outcome: "temporary", userID: user.id,
                    details: ["block": String(block), "until": ISO8601DateFormatter().string(from: until)])
                if block >= policy.maxTemporaryBlocks { await alerts.send(.recoveryBlocked(until: until), to: user) }
            }
            return Problem.recoveryLocked(until: until, now: now)
        case .permanentlyBlocked:
            await audit.record(.recoveryFailed, outcome: "failure", userID: user.id, details: ["remaining": "0"])
            await audit.record(.recoveryLocked, outcome: "permanent", userID: user.id)
            await alerts.send(.recoveryBlocked(until: nil), to: user)
            return Problem.recoveryLocked(until: nil, now: now)
        }
    }

    /// Gives a reserved attempt back: it was refused before anything was judged.
    func release(_ codeDigest: [UInt8]) async throws {
        _ = try await store.updateRecoveryLockout(codeDigest: codeDigest, { $0.releaseAttempt() })
    }

    private func digest(_ code: ActivationCode) -> [UInt8] {
        box.mac(Array(code.description.utf8), purpose: "recovery-code")
    }

    /// Bound to nothing but the PUK: the code's digest finds the sheet, the PUK's is compared
    /// with the one expected next on it.
    private func digest(_ puk: RecoveryPUK) -> [UInt8] {
        box.mac(Array(puk.digits.utf8), purpose: "recovery-puk")
    }
}
