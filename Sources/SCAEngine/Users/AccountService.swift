import Foundation
import SCACore
import SCAStorage

/// What a signed-in user does with a bearer token: list and remove their devices, issue an
/// activation code for a new device, change their settings. Sensitive changes need a token of
/// a completed `settings_change` challenge, used once.
package struct AccountService: Sendable {
    let tokens: TokenService
    let users: UserService
    let devices: DeviceService
    /// A new e-mail address or phone number waits for the code sent to it.
    let contactChanges: ContactChangeService

    /// Operations whose token may issue an activation code: binding a device is a sensitive
    /// act that needs its own SCA (RTS art. 24), so a `login` token, which a session carries
    /// for minutes, is not enough. A `settings_change` token serves too. Each token issues one code.
    static let activationOperations: Set<OperationKind> = [.deviceActivation, .settingsChange]

    /// - Throws: `Problem` 401 (`auth.unauthorized`, `token.invalid`, also for a token used
    ///   before, `session.expired`), 403 `auth.forbidden` naming the operation needed.
    package func issueActivationCode(authorization: String?) async throws -> ActivationCodeResponse {
        let claims: AccessTokenClaims
        do {
            claims = try await tokens.authorize(authorization, for: Self.activationOperations, consume: false)
        } catch let problem as Problem where problem.code == .forbidden {
            var named = problem
            named.detail =
                "Issuing an activation code needs the token of a completed device_activation (or settings_change) challenge."
            throw named
        }
        do {
            try await tokens.consume(claims)
        } catch let problem as Problem where problem.code == .tokenInvalid {
            var named = problem
            named.detail = "This token has issued an activation code already; each code needs a new device_activation challenge."
            throw named
        }
        return try await devices.issueActivationCode(for: claims.sub.value)
    }

    package func devices(authorization: String?) async throws -> [DeviceResponse] {
        let claims = try await tokens.authorize(authorization, for: [.login, .accountInfo, .settingsChange], consume: false)
        return try await devices.devices(of: claims.sub.value)
    }

    /// `PATCH /v1/devices/{id}`: a new name for one of the user's own devices.
    package func renameDevice(_ deviceID: String, _ request: RenameDeviceRequest, authorization: String?) async throws -> DeviceResponse {
        let claims = try await tokens.authorize(authorization, for: [.login, .accountInfo, .settingsChange], consume: false)
        return try await devices.rename(deviceID, to: request.name, owner: claims.sub.value)
    }

    /// Removing a device ends what it can prove; a login token is enough, since removing only
    /// takes power away (but not from a restricted account: ``EngineService/refuseIfRestricted(_:)``).
    package func removeDevice(_ deviceID: String, authorization: String?) async throws -> DeviceResponse {
        let claims = try await tokens.authorize(authorization, for: [.login, .settingsChange], consume: false)
        try await devices.refuseIfRestricted(claims.sub.value)
        return try await devices.setStatus(of: deviceID, to: .removed, owner: claims.sub.value)
    }

    package func changeSettings(_ request: SettingsChangeRequest, authorization: String?) async throws -> UserResponse {
        guard request.email != nil || request.password != nil || request.pin != nil || request.phone != nil else {
            throw Problem.invalidRequest("nothing to change")
        }
        // Check everything that can be checked before burning the token, so a typo or a
        // taken address does not cost the user a new SCA.
        try UserService.validate(email: request.email, password: request.password, pin: request.pin, phone: request.phone)
        let claims = try await tokens.authorize(authorization, for: [.settingsChange], consume: false)
        if let email = request.email, let owner = try await users.find(email), owner.id != claims.sub.value {
            throw Problem.userExists
        }
        try await tokens.consume(claims)
        guard var user = try await users.find(claims.sub.value) else { throw Problem.userNotFound }
        if request.password != nil || request.pin != nil {
            user = try await users.changeOwnSettings(
                userID: user.id, UpdateUserRequest(password: request.password, pin: request.pin))
        }
        // A new address counts only once the code sent to it comes back: until then the
        // account's codes and alerts keep going where they went.
        var waiting: [PendingContactChangeResponse] = []
        if let email = request.email.map(InputRules.normalizedEmail), email != user.email {
            waiting.append(try await contactChanges.request(.email, address: email, for: user))
        }
        if let phone = request.phone, phone != user.phone {
            waiting.append(try await contactChanges.request(.phone, address: phone, for: user))
        }
        var response = try await users.describe(user)
        response.pendingConfirmations = waiting.isEmpty ? nil : waiting
        return response
    }
}
