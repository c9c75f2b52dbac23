import Foundation
import SCACore
import SCAStorage

/// A new e-mail address or phone number, confirmed by a code sent to it before it counts.
/// ``AccountService`` asks for it when a `settings_change` token's change names one; the user
/// then types the code back with a session of their own (`POST /v1/me/contact-confirmations`,
/// the account page). Only then is the address stored, and the old and the new one alerted.
package struct ContactChangeService: EngineService, Sendable {
    package let context: EngineContext
    let tokens: TokenService
    let users: UserService
    let messages: MessageDispatcher
    let limiter: RateLimiter

    static let confirmOperations: Set<OperationKind> = [.login, .accountInfo, .settingsChange]

    /// Sends a code to `address` and keeps the change waiting for it, replacing any earlier one
    /// on the same channel.
    /// - Throws: `Problem` 429 `rate.limited` when the address or the user has had too many codes;
    ///   nothing waits then.
    func request(_ channel: ContactChannel, address: String, for user: UserRecord) async throws -> PendingContactChangeResponse {
        let messageChannel: OutboundMessage.Channel = channel == .email ? .email : .sms
        let destination = channel == .email ? "email|\(address)" : "phone|\(address)"
        try await limiter.admitSend(
            messageChannel,
            to: RateLimiter.SendSubjects(user: limiter.subject("user|\(user.id)"), destination: limiter.subject(destination)),
            userID: user.id, challengeID: nil)
        let code = OneTimeCode.generate(digits: 6, using: runtime.random).description
        let now = runtime.now()
        let change = ContactChange.Pending(
            channel: channel, address: address, codeHash: codeHash(code, channel: channel, address: address, userID: user.id),
            requestedAt: now, expiresAt: now.addingTimeInterval(TimeInterval(configuration.codeLifetime)), failures: 0)
        try await store.updateRiskState(key: ContactChange.keyPrefix + user.id, as: ContactChange.self) { $0.request(change) }
        let text = messageText(for: user).contactCode(code, channel: messageChannel, lifetime: configuration.codeLifetime)
        await messages.submit(QueuedMessage(
            OutboundMessage(channel: messageChannel, to: address, text: text, sentAt: now), purpose: .code, userID: user.id))
        await audit.record(.contactChangeRequested, userID: user.id, channel: messageChannel)
        return Self.describe(change)
    }

    /// `POST /v1/me/contact-confirmations`: the code sent to the new address, typed back.
    /// - Throws: `Problem` 401/403 for the token (`token.delegated` for a partner's), 404
    ///   `confirmation.nothing_pending`, 422 `confirmation.code_invalid` with the tries left (at none, the
    ///   change is dropped), 409 `user.exists` when the address was taken meanwhile.
    package func confirm(_ request: ContactConfirmationRequest, authorization: String?) async throws -> UserResponse {
        let claims = try await tokens.authorize(authorization, for: Self.confirmOperations, consume: false)
        return try await users.describe(try await confirm(request, userID: claims.sub.value))
    }

    /// Confirms `userID`'s change on `request.channel` with the typed code.
    package func confirm(_ request: ContactConfirmationRequest, userID: String) async throws -> UserRecord {
        let typed = request.code.trimmingCharacters(in: .whitespaces)
        guard InputRules.isDigits(typed, count: 6) else { throw Problem.invalidRequest("code: six digits") }
        try await refuseIfRestricted(userID)
        let box = self.box
        let now = runtime.now()
        let attempt = try await store.updateRiskState(key: ContactChange.keyPrefix + userID, as: ContactChange.self) { state in
            state.attempt(request.channel, at: now) { pending in
                ConstantTime.equals(
                    Self.codeHash(typed, channel: pending.channel, address: pending.address, userID: userID, box: box),
                    pending.codeHash)
            }
        }
        let channel: OutboundMessage.Channel = request.channel == .email ? .email : .sms
        switch attempt {
        case .nothingPending:
            throw Problem.confirmationNothingPending
        case .wrong(let remaining):
            await audit.record(.contactChangeRefused, outcome: "wrong_code", userID: userID, channel: channel, details: ["remaining": String(remaining)])
            throw Problem.confirmationCodeInvalid(remaining: remaining)
        case .exhausted:
            await audit.record(.contactChangeRefused, outcome: "dropped", userID: userID, channel: channel, details: ["remaining": "0"])
            throw Problem.confirmationCodeInvalid(remaining: 0)
        case .confirmed(let change):
            let update = change.channel == .email ? UpdateUserRequest(email: change.address) : UpdateUserRequest(phone: change.address)
            return try await users.changeOwnSettings(userID: userID, update)
        }
    }

    /// `DELETE /v1/me/contact-confirmations/{channel}`: the waiting change is dropped.
    /// - Throws: 404 `confirmation.nothing_pending`.
    package func cancel(_ channel: ContactChannel, userID: String) async throws {
        let now = runtime.now()
        let cancelled = try await store.updateRiskState(key: ContactChange.keyPrefix + userID, as: ContactChange.self) {
            $0.cancel(channel, at: now)
        }
        guard cancelled else { throw Problem.confirmationNothingPending }
        await audit.record(
            .contactChangeRefused, outcome: "cancelled", userID: userID, channel: channel == .email ? .email : .sms)
    }

    package func cancel(_ channel: String, authorization: String?) async throws {
        let claims = try await tokens.authorize(authorization, for: Self.confirmOperations, consume: false)
        guard let channel = ContactChannel(rawValue: channel) else { throw Problem.confirmationNothingPending }
        try await cancel(channel, userID: claims.sub.value)
    }

    /// The changes waiting for `userID`, for the overview.
    package func waiting(for userID: String) async throws -> [PendingContactChangeResponse] {
        let state = try await store.riskState(key: ContactChange.keyPrefix + userID, as: ContactChange.self)
        let now = runtime.now()
        return ContactChannel.allCases.compactMap { state.waiting(on: $0, at: now) }.map(Self.describe)
    }

    static func describe(_ change: ContactChange.Pending) -> PendingContactChangeResponse {
        PendingContactChangeResponse(
            channel: change.channel,
            sentTo: change.channel == .email ? CodeService.maskEmail(change.address) : CodeService.maskPhone(change.address),
            expiresAt: change.expiresAt)
    }

    private func codeHash(_ code: String, channel: ContactChannel, address: String, userID: String) -> [UInt8] {
        Self.codeHash(code, channel: channel, address: address, userID: userID, box: box)
    }

    /// Bound to the user, the channel and the address, so a code of one change never confirms
    /// another.
    static func codeHash(_ code: String, channel: ContactChannel, address: String, userID: String, box: SecretBox) -> [UInt8] {
        box.mac(Array("\(userID)|\(channel.rawValue)|\(address)|\(code)".utf8), purpose: "contact-change-code")
    }
}
