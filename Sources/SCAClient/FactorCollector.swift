import SCACore

/// The UI's side of the authentication loop: the SDK decides what to ask from what the
/// server offers and answers, the collector asks the user.
///
/// Any method may throw ``SCAClientError/cancelled`` (or a `CancellationError`) to end the flow:
/// the SDK then cancels the challenge on the server and throws ``SCAClientError/cancelled``.
public protocol FactorCollector: Sendable {
    /// Picks the next method to prove.
    ///
    /// - Parameters:
    ///   - methods: the usable methods, already in the configured order, only of categories still
    ///     missing. Returning a method outside this list ends the flow with
    ///     ``SCAClientError/noUsableMethod(missingCategories:)``.
    ///   - challenge: the challenge being answered (operation, display of a payment).
    /// - Returns: one of `methods`.
    /// - Throws: ``SCAClientError/cancelled`` to cancel.
    func chooseMethod(from methods: [OfferedMethod], for challenge: ChallengeResponse) async throws -> AuthenticationMethod

    /// Asks for a password or PIN.
    ///
    /// - Parameters:
    ///   - method: `.password` or `.pin`.
    ///   - attempt: which try this is; `previousFailure` is set when the last try was wrong, with
    ///     the remaining attempts.
    /// - Returns: the secret as typed.
    /// - Throws: ``SCAClientError/cancelled`` to cancel.
    func secret(for method: AuthenticationMethod, attempt: AttemptContext) async throws -> String

    /// Asks for a 6-digit code (`totp`, `sms_otp`, `email_otp`).
    ///
    /// - Parameters:
    ///   - method: the code's method.
    ///   - delivery: where an SMS or e-mail code went (masked); nil for TOTP, and nil when a code
    ///     had been sent moments before and the server refused to send another yet.
    ///   - attempt: which try this is, and why the last one failed.
    ///   - resend: asks the server for a new code (it may answer `429 otp.resend_too_soon`,
    ///     thrown as ``SCAClientError/server(_:)``).
    /// - Returns: the code as typed.
    /// - Throws: ``SCAClientError/cancelled`` to cancel.
    func code(
        for method: AuthenticationMethod, delivery: CodeSentResponse?, attempt: AttemptContext,
        resend: @escaping @Sendable () async throws -> CodeSentResponse
    ) async throws -> String

    /// Shows amount and payee plainly and asks the user to approve the payment, before any proof.
    ///
    /// - Parameter display: what the server will bind every proof to.
    /// - Returns: false to decline: the SDK cancels the challenge and throws
    ///   ``SCAClientError/transactionDeclined``.
    /// - Throws: ``SCAClientError/cancelled`` to cancel.
    func confirm(_ display: TransactionDisplay) async throws -> Bool

    /// The biometric gate before the biometry key may sign (Face ID, a fingerprint).
    ///
    /// - Parameter reason: one line to show with the prompt.
    /// - Returns: false when it failed or the user declined it: the SDK falls back to another
    ///   category for this flow.
    /// - Throws: ``SCAClientError/cancelled`` to cancel the whole flow.
    func passBiometricGate(reason: String) async throws -> Bool

    /// Signs the challenge's passkey options with a platform authenticator: on Apple
    /// platforms hand them to `ASAuthorizationPlatformPublicKeyCredentialProvider` and return
    /// its answer in WebAuthn's JSON form. The default answers nil (no authenticator, as on
    /// Linux): the SDK then uses another method.
    ///
    /// - Parameters:
    ///   - options: `PublicKeyCredentialRequestOptions`, whose challenge is bound to this
    ///     challenge (and a payment's amount and payee).
    ///   - challenge: the challenge being answered.
    /// - Returns: the assertion, or nil when no passkey can sign.
    /// - Throws: ``SCAClientError/cancelled`` to cancel.
    func passkeyAssertion(for options: PasskeyRequestOptions, challenge: ChallengeResponse) async throws -> PasskeyAssertionCredential?

    /// Asks a new user, just created by a sign-up's e-mail code, for the password or PIN to set
    /// as their second element. `email` is the phone number for a sign-up by phone
    /// (``SCAClient/signUpOrIn(phone:using:prefill:)``). The default refuses with ``SCAClientError/cancelled``:
    /// an app that offers ``SCAClient/signUpOrIn(email:using:prefill:)`` implements it.
    func newSecret(for email: String) async throws -> NewSecret
}

extension FactorCollector {
    /// No platform authenticator: a passkey is never used.
    public func passkeyAssertion(for options: PasskeyRequestOptions, challenge: ChallengeResponse) async throws -> PasskeyAssertionCredential? {
        nil
    }

    public func newSecret(for email: String) async throws -> NewSecret {
        throw SCAClientError.cancelled
    }
}
