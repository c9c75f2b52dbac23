import Foundation
import SCACore
import SCAStorage

// The account page's sign-in, session and actions. The page signs the user in with a login
// challenge of the server's own (never a partner's), so the session it keeps is first-party;
// each request resumes it from the store, so it idles out and ends as any other.
extension AccountOverviewService {
    /// The sign-in's steps (and a confirmation's), on the pages' factor forms.
    package var signIn: FirstPartySignIn { FirstPartySignIn(challenges: challenges) }

    /// A `settings_change` challenge of its own for the signed-in user: what adding a passkey
    /// needs, never the sign-in's.
    package func startSettingsChange(for session: AccountSession) async throws -> ChallengeResponse {
        try await challenges.create(CreateChallengeRequest(operation: .settingsChange, user: UserReference(userId: session.userID)))
    }

    /// The page's session of a completed sign-in: a first-party login earned with strong customer
    /// authentication (two categories), else refused and its session ended at once.
    /// - Throws: 403 `auth.forbidden` for a sign-in that was not SCA; 401 for tokens that are
    ///   not valid; 403 `token.delegated` for a partner's.
    package func open(_ response: TokenResponse) async throws -> AccountSession {
        let claims = try await tokens.authorize("Bearer \(response.accessToken)", for: [.login], consume: false)
        guard claims.acr == TokenResponse.scaACR, Set(claims.amr.map(\.category)).count >= 2 else {
            try? await store.revokeSession(id: claims.sid, now: runtime.now())
            throw Problem(status: 403, code: .forbidden, title: "Forbidden", detail: "The account page needs strong customer authentication.")
        }
        return AccountSession(sessionID: claims.sid, userID: claims.sub.value, authenticatedAt: runtime.now())
    }

    /// The session, now: still open on the store (it counts as a use, so a page left alone
    /// idles out as any other session) and still the user's own.
    /// - Throws: 401 `session.expired` for a session that ended or idled out.
    package func resume(_ session: AccountSession) async throws {
        let use = try await store.useSession(
            id: session.sessionID, now: runtime.now(), idleTimeout: TimeInterval(configuration.sessionIdleTimeout))
        guard case .active(let record) = use, record.userID == session.userID, record.clientID == nil else {
            throw Problem.sessionExpired
        }
    }

    /// Signs the page out: its session ends on every instance.
    package func close(_ session: AccountSession) async throws {
        try await store.revokeSession(id: session.sessionID, now: runtime.now())
    }

    /// The overview for the page's session.
    package func overview(for session: AccountSession) async throws -> AccountOverviewResponse {
        try await overview(of: session.userID, currentSession: session.sessionID)
    }

    /// Removes one of the user's devices, as `DELETE /v1/devices/{id}` does (and as there, not
    /// while a weak password reset holds the account: whoever made it must not take the real
    /// owner's devices away).
    /// - Throws: `Problem.deviceNotFound` (also another user's), `Problem.userRestricted`.
    package func removeDevice(_ deviceID: String, for session: AccountSession) async throws {
        try await refuseIfRestricted(session.userID)
        _ = try await devices.setStatus(of: deviceID, to: .removed, owner: session.userID)
    }

    /// Renames one of the user's devices, as `PATCH /v1/devices/{id}` does.
    /// - Throws: `Problem.invalidRequest`, `Problem.deviceNotFound` (also another user's).
    package func renameDevice(_ deviceID: String, to name: String, for session: AccountSession) async throws {
        _ = try await devices.rename(deviceID, to: name, owner: session.userID)
    }

    /// Removes one of the user's passkeys, as `DELETE /v1/passkeys/{id}` does.
    /// - Throws: `Problem.passkeyNotFound` (also another user's), `Problem.userRestricted`.
    package func removePasskey(_ passkeyID: String, for session: AccountSession) async throws {
        try await refuseIfRestricted(session.userID)
        _ = try await passkeys.remove(passkeyID, owner: session.userID)
    }

    /// Stops trusting a payee, as `DELETE /v1/me/beneficiaries/{id}` does (audited alike).
    /// - Throws: `Problem.beneficiaryNotFound` (also another user's).
    package func removeBeneficiary(_ beneficiaryID: String, for session: AccountSession) async throws {
        _ = try await beneficiaries.remove(beneficiaryID, of: session.userID, sessionID: session.sessionID)
    }

    /// The WebAuthn creation options for a new passkey, with the token of the user's own
    /// `settings_change` confirmation (not spent: the ceremony may be abandoned).
    package func passkeyOptions(settingsToken: String) async throws -> PasskeyCreationOptions {
        try await passkeys.registrationOptions(authorization: "Bearer \(settingsToken)")
    }

    /// Registers the passkey the browser made, spending the confirmation's token.
    package func addPasskey(
        _ credential: PasskeyRegistrationCredential, name: String?, settingsToken: String
    ) async throws -> PasskeyResponse {
        try await passkeys.register(RegisterPasskeyRequest(name: name, credential: credential), authorization: "Bearer \(settingsToken)")
    }

    /// A change of the user's own details with the confirmation's token, as `PATCH /v1/me`
    /// makes it: a new e-mail address or phone number waits for the code sent to it.
    package func changeSettings(_ request: SettingsChangeRequest, settingsToken: String) async throws -> UserResponse {
        try await settings.changeSettings(request, authorization: "Bearer \(settingsToken)")
    }

    /// A new recovery sheet, replacing the old one, spending the confirmation's token.
    package func issueRecoverySheet(settingsToken: String) async throws -> RecoverySheetResponse {
        try await recovery.issueSheet(authorization: "Bearer \(settingsToken)")
    }

    /// A new authenticator-app seed, spending the confirmation's token.
    package func startTOTPSetup(settingsToken: String) async throws -> TOTPSetupResponse {
        try await totpSetup.start(authorization: "Bearer \(settingsToken)")
    }

    /// The first code of the new authenticator app.
    package func confirmTOTPSetup(code: String, for session: AccountSession) async throws {
        try await totpSetup.confirm(TOTPConfirmationRequest(code: code), userID: session.userID)
    }

    /// The code sent to a new e-mail address or phone number.
    package func confirmContactChange(_ channel: ContactChannel, code: String, for session: AccountSession) async throws {
        _ = try await contactChanges.confirm(ContactConfirmationRequest(channel: channel, code: code), userID: session.userID)
    }

    /// Drops a new address unconfirmed.
    package func cancelContactChange(_ channel: ContactChannel, for session: AccountSession) async throws {
        try await contactChanges.cancel(channel, userID: session.userID)
    }

    /// Whether the confirmation's token belongs to the page's user: a confirmation finished in
    /// another visit of someone else cannot serve here.
    package func settingsToken(_ token: String, belongsTo session: AccountSession) async -> Bool {
        guard let claims = try? await tokens.authorize("Bearer \(token)", for: [.settingsChange], consume: false) else { return false }
        return claims.sub.value == session.userID
    }
}
