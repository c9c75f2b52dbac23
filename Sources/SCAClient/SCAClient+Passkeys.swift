import Foundation
import SCACore

// Passkeys. The SDK carries WebAuthn's options and responses as plain Codable types
// (SCACore's `PasskeyCreationOptions`, `PasskeyRegistrationCredential`): on Apple platforms the
// app hands the options to `ASAuthorizationPlatformPublicKeyCredentialProvider` and the result
// back here; the SDK itself never creates a passkey (on Linux there is no authenticator).
extension SCAClient {
    /// Registration options for the user of `settingsChangeToken`, the access token of a
    /// completed `settings_change` challenge (RTS art. 24: binding a new element needs its own
    /// SCA); the token is not spent here.
    ///
    /// - Throws: ``SCAClientError/server(_:)`` with `auth.forbidden` for another operation's
    ///   token, `passkey.unavailable` when the server has no relying party; `URLError`.
    public func passkeyRegistrationOptions(settingsChangeToken: String) async throws -> PasskeyCreationOptions {
        try await transport.send(.post, "v1/passkeys/registration/options", bearer: settingsChangeToken)
    }

    /// Registers what the platform authenticator made for ``passkeyRegistrationOptions(settingsChangeToken:)``.
    /// A success spends the token.
    ///
    /// - Parameters:
    ///   - credential: the platform's answer in WebAuthn's JSON form.
    ///   - name: shown in the passkey list (`Passkey` when nil).
    ///   - settingsChangeToken: the token the options were fetched with.
    /// - Throws: ``SCAClientError/server(_:)`` with `passkey.invalid`, `passkey.challenge_invalid`,
    ///   `passkey.already_registered`, `passkey.limit_reached`; `URLError`.
    public func registerPasskey(
        _ credential: PasskeyRegistrationCredential, name: String? = nil, settingsChangeToken: String
    ) async throws -> PasskeyResponse {
        try await transport.send(
            .post, "v1/passkeys", body: RegisterPasskeyRequest(name: name, credential: credential), bearer: settingsChangeToken)
    }

    /// The signed-in user's passkeys, oldest first.
    public func passkeys() async throws -> [PasskeyResponse] {
        try await withAccessToken { token in try await transport.send(.get, "v1/passkeys", bearer: token) }
    }

    /// Removes one of the signed-in user's passkeys.
    /// - Throws: ``SCAClientError/server(_:)`` with `passkey.not_found`; `URLError`.
    public func removePasskey(_ passkeyID: String) async throws -> PasskeyResponse {
        try await withAccessToken { token in
            try await transport.send(.delete, "v1/passkeys/\(APITransport.escape(passkeyID))", bearer: token)
        }
    }

    // MARK: Passkey proofs

    /// Opens a `login` challenge without an e-mail, for a discoverable passkey: its `passkey`
    /// options have no `allowCredentials`, and the assertion's user handle names the user.
    /// - Throws: ``SCAClientError/server(_:)`` with `method.not_offered` when the server has no
    ///   passkeys or its `login` policy does not offer them; `URLError`.
    public func startPasskeyLogin() async throws -> ChallengeResponse {
        try await transport.send(
            .post, "v1/challenges",
            body: CreateChallengeRequest(operation: .login, user: UserReference(), methodHint: .passkey))
    }

    /// Submits what the platform authenticator returned for `challenge.passkey` as the
    /// challenge's `passkey` proof. Tokens that open a session (`login`, `account_info`) are
    /// saved in the token store, as ``authenticate(challenge:using:prefill:)`` does.
    ///
    /// - Returns: `partial` (an assertion without user verification proves possession only:
    ///   continue with ``authenticate(challenge:using:prefill:)``) or `complete` with the tokens.
    /// - Throws: ``SCAClientError/server(_:)`` with `sca.proof_rejected` or
    ///   `sca.authentication_failed` (a wrong assertion, counted), `sca.code_already_used`
    ///   (presented before), `user.locked`; `URLError`.
    public func submitPasskeyAssertion(
        _ assertion: PasskeyAssertionCredential, to challenge: ChallengeResponse
    ) async throws -> ProofResponse {
        let answer: ProofResponse = try await transport.send(
            .post, "v1/challenges/\(APITransport.escape(challenge.challengeId))/proofs",
            body: ProofRequest(method: .passkey, assertion: assertion))
        if let tokens = answer.tokens, tokens.refreshToken != nil {
            try await session.save(tokens, receivedAt: now())
        }
        return answer
    }
}
