import Foundation
import SCACore

extension SCAClient {
    /// Sets a new password after the user forgot it, proven without it: with this device's
    /// keys when it is bound (its key and biometry: a complete reset), otherwise with a code
    /// sent to the user's e-mail or phone, which alone leaves the account restricted (it signs
    /// in, but payments and changes wait for the bank) unless the recovery sheet's code and
    /// next PUK are given too. Every session of the user ends, on every device.
    ///
    /// - Parameters:
    ///   - email: the account's address, used when this device is not bound to this server (or
    ///     a recovery sheet is given).
    ///   - newPassword: 8 to 1024 characters.
    ///   - recoverySheet: the sheet's code and its next unused PUK, to complete a reset proven
    ///     with a code (this device's keys are then not used).
    ///   - collector: asks the user for the code, or for the biometric gate.
    /// - Returns: whether the reset is complete or restricted, and until when.
    /// - Throws: ``SCAClientError/deviceNotActivated`` with neither a binding used nor `email`;
    ///   ``SCAClientError/server(_:)`` with `request.invalid` (the password's rules),
    ///   `recovery.failed` / `recovery.locked` for the sheet; otherwise as
    ///   ``authenticate(challenge:using:prefill:)``; `URLError`.
    public func resetPassword(
        email: String?, newPassword: String, recoverySheet: (code: String, puk: String)? = nil,
        using collector: any FactorCollector
    ) async throws -> PasswordResetResponse {
        if let problem = InputRules.passwordProblem(newPassword) {
            throw SCAClientError.server(Problem(status: 400, code: .requestInvalid, title: "Invalid request", detail: problem))
        }
        let request: CreateChallengeRequest
        if recoverySheet == nil, let binding = try await keyStore.binding(), binding.isFor(server: server) {
            request = CreateChallengeRequest(
                operation: .passwordReset, user: UserReference(userId: binding.userId),
                device: DeviceReference(deviceId: binding.deviceId), methodHint: .deviceKey)
        } else if let email {
            request = CreateChallengeRequest(operation: .passwordReset, user: UserReference(email: email), methodHint: .emailOTP)
        } else {
            throw SCAClientError.deviceNotActivated
        }
        let challenge = try await startChallenge(request)
        let tokens = try await authenticate(challenge: challenge, using: collector)
        return try await transport.send(
            .post, "v1/password-reset",
            body: PasswordResetRequest(password: newPassword, recoveryCode: recoverySheet?.code, puk: recoverySheet?.puk),
            bearer: tokens.accessToken)
    }
}
