import Foundation
import SCACore

extension SCAClient {
    /// Asks for a new e-mail address. Runs a `settings_change` challenge first, with the
    /// collector as any other challenge; the server then sends a code to the new address, and
    /// the address counts only once ``confirmContactChange(_:code:)`` brings that code back.
    /// Until then codes and alerts go to the old address.
    ///
    /// - Parameters:
    ///   - email: the new address.
    ///   - collector: asks the user.
    /// - Returns: what waits: the channel, the masked address the code went to, and until when.
    /// - Throws: ``SCAClientError/notSignedIn``; ``SCAClientError/server(_:)`` with
    ///   `request.invalid` (checked before the challenge's token is spent), `user.exists`,
    ///   `rate.limited`; otherwise as ``authenticate(challenge:using:prefill:)``; `URLError`.
    public func changeEmail(
        to email: String, using collector: any FactorCollector, prefill: [AuthenticationMethod: String] = [:]
    ) async throws -> PendingContactChangeResponse {
        try await requestContactChange(SettingsChangeRequest(email: email), using: collector, prefill: prefill)
    }

    /// Asks for a new phone number (E.164), as ``changeEmail(to:using:prefill:)`` does.
    public func changePhone(
        to phone: String, using collector: any FactorCollector, prefill: [AuthenticationMethod: String] = [:]
    ) async throws -> PendingContactChangeResponse {
        try await requestContactChange(SettingsChangeRequest(phone: phone), using: collector, prefill: prefill)
    }

    /// Confirms a new e-mail address or phone number with the code sent to it.
    ///
    /// - Throws: ``SCAClientError/notSignedIn``; ``SCAClientError/server(_:)`` with
    ///   `confirmation.code_invalid` (its `remainingAttempts`; at none the change is dropped),
    ///   `confirmation.nothing_pending`, `user.exists`; `URLError`.
    public func confirmContactChange(_ channel: ContactChannel, code: String) async throws {
        try await withAccessToken { token in
            try await transport.sendForStatus(
                .post, "v1/me/contact-confirmations", body: ContactConfirmationRequest(channel: channel, code: code), bearer: token)
        }
    }

    /// Drops a new e-mail address or phone number unconfirmed.
    public func cancelContactChange(_ channel: ContactChannel) async throws {
        try await withAccessToken { token in
            try await transport.sendForStatus(.delete, "v1/me/contact-confirmations/\(channel.rawValue)", bearer: token)
        }
    }

    /// Changes the password, after a `settings_change` challenge of its own. The user is alerted
    /// on every channel they have.
    public func changePassword(
        to password: String, using collector: any FactorCollector, prefill: [AuthenticationMethod: String] = [:]
    ) async throws {
        let token = try await settingsChangeToken(using: collector, prefill: prefill)
        try await transport.sendForStatus(.patch, "v1/me", body: SettingsChangeRequest(password: password), bearer: token)
    }

    /// Changes the PIN, as ``changePassword(to:using:prefill:)`` does.
    public func changePIN(
        to pin: String, using collector: any FactorCollector, prefill: [AuthenticationMethod: String] = [:]
    ) async throws {
        let token = try await settingsChangeToken(using: collector, prefill: prefill)
        try await transport.sendForStatus(.patch, "v1/me", body: SettingsChangeRequest(pin: pin), bearer: token)
    }

    /// A new authenticator-app seed, after a `settings_change` challenge of its own: show the
    /// ``TOTPSetupResponse/otpauthUri`` as a QR code (or the secret as text), then call
    /// ``confirmAuthenticatorApp(code:)`` with a code the app shows. The app the user had counts
    /// until then.
    public func setUpAuthenticatorApp(
        using collector: any FactorCollector, prefill: [AuthenticationMethod: String] = [:]
    ) async throws -> TOTPSetupResponse {
        let token = try await settingsChangeToken(using: collector, prefill: prefill)
        return try await transport.send(.post, "v1/me/totp", bearer: token)
    }

    /// Confirms the new authenticator app with a code it shows; it then replaces the old one.
    /// - Throws: ``SCAClientError/server(_:)`` with `confirmation.code_invalid` or
    ///   `confirmation.nothing_pending`; ``SCAClientError/notSignedIn``; `URLError`.
    public func confirmAuthenticatorApp(code: String) async throws {
        try await withAccessToken { token in
            try await transport.sendForStatus(.post, "v1/me/totp/confirmation", body: TOTPConfirmationRequest(code: code), bearer: token)
        }
    }

    private func requestContactChange(
        _ request: SettingsChangeRequest, using collector: any FactorCollector, prefill: [AuthenticationMethod: String]
    ) async throws -> PendingContactChangeResponse {
        let token = try await settingsChangeToken(using: collector, prefill: prefill)
        let user: UserChangeAnswer = try await transport.send(.patch, "v1/me", body: request, bearer: token)
        // The server asks for nothing when the address is the one the account has already.
        guard let waiting = user.pendingConfirmations?.first else {
            throw SCAClientError.server(
                Problem(status: 400, code: .requestInvalid, title: "Nothing to change", detail: "That is the address the account has."))
        }
        return waiting
    }

    /// The token of a completed `settings_change` challenge for the signed-in user or this device.
    private func settingsChangeToken(using collector: any FactorCollector, prefill: [AuthenticationMethod: String]) async throws -> String {
        let (user, device) = try await subject()
        let challenge = try await startChallenge(for: .settingsChange, user: user, device: device)
        return try await authenticate(challenge: challenge, using: collector, prefill: prefill).accessToken
    }
}

/// The part of `PATCH /v1/me`'s answer a client reads: what waits for a code.
private struct UserChangeAnswer: Decodable {
    var pendingConfirmations: [PendingContactChangeResponse]?
}
