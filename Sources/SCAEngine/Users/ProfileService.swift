import Foundation
import SCACore
import SCAStorage

/// A user's name, custom attributes, language and time zone, and their own view of their
/// account (`GET /v1/me`). The user changes their profile with a `settings_change` token (used once),
/// an operator with `users:write`, a new user at enrolment; each change is audited naming the
/// fields, never the values.
package struct ProfileService: EngineService, Sendable {
    package let context: EngineContext
    let tokens: TokenService

    /// The validated profile `request` makes of `current`.
    /// - Throws: `Problem.invalidRequest` naming the first bad field.
    static func applying(_ request: ProfileRequest, to current: UserProfile) throws -> UserProfile {
        var profile = current
        if let name = request.name {
            switch DisplayText.normalized(name, field: "name", maxLength: UserAttributes.maxValueLength) {
            case .success(let normalized): profile.name = normalized
            case .failure(let violation): throw Problem.invalidRequest(violation.reason)
            }
        }
        if let attributes = request.attributes {
            switch UserAttributes.normalized(attributes) {
            case .success(let normalized): profile.attributes = normalized
            case .failure(let violation): throw Problem.invalidRequest(violation.reason)
            }
        }
        if let locale = request.locale {
            switch ProfileLocale.stored(locale: locale) {
            case .success(let stored): profile.locale = stored
            case .failure(let violation): throw Problem.invalidRequest(violation.reason)
            }
        }
        if let zoneinfo = request.zoneinfo {
            switch ProfileLocale.stored(zoneinfo: zoneinfo) {
            case .success(let stored): profile.zoneinfo = stored
            case .failure(let violation): throw Problem.invalidRequest(violation.reason)
            }
        }
        return profile
    }

    /// Whether the request names anything to change.
    static func changesSomething(_ request: ProfileRequest) -> Bool {
        request.name != nil || request.attributes != nil || request.locale != nil || request.zoneinfo != nil
    }

    /// The fields a request sets, for the trail.
    static func fields(of request: ProfileRequest) -> String {
        [
            request.name.map { _ in "name" }, request.attributes.map { _ in "attributes" },
            request.locale.map { _ in "locale" }, request.zoneinfo.map { _ in "zoneinfo" },
        ].compactMap { $0 }.joined(separator: ",")
    }

    /// `GET /v1/me`: a `login`, `account_info` or `settings_change` token, not consumed.
    package func me(authorization: String?) async throws -> ProfileResponse {
        let claims = try await tokens.authorize(authorization, for: [.login, .accountInfo, .settingsChange], consume: false)
        guard let user = try await store.user(id: claims.sub.value) else { throw Problem.userNotFound }
        return try await describe(user)
    }

    /// `PUT /v1/me/profile` with a `settings_change` token, consumed once the request is valid.
    package func changeOwn(_ request: ProfileRequest, authorization: String?) async throws -> ProfileResponse {
        guard Self.changesSomething(request) else { throw Problem.invalidRequest("nothing to change") }
        _ = try Self.applying(request, to: UserProfile())
        let claims = try await tokens.authorize(authorization, for: [.settingsChange], consume: false)
        try await tokens.consume(claims)
        let user = try await write(request, userID: claims.sub.value)
        await audit.record(.userSettingsChanged, userID: user.id, details: ["fields": Self.fields(of: request)])
        return try await describe(user)
    }

    /// `PUT /admin/v1/users/{id}/profile`: an operator's change, audited `admin.user_updated`.
    package func changeByOperator(_ request: ProfileRequest, userID: String) async throws -> ProfileResponse {
        guard Self.changesSomething(request) else { throw Problem.invalidRequest("nothing to change") }
        _ = try Self.applying(request, to: UserProfile())
        let user = try await write(request, userID: userID)
        await audit.record(.adminUserUpdated, userID: user.id, details: ["fields": Self.fields(of: request)])
        return try await describe(user)
    }

    /// Reads, applies and writes the whole profile as a compare-and-set on the profile read:
    /// a parallel change that landed in between is read again and this request applied on top
    /// of it, so two parallel changes of different fields both stay (merged, never lost).
    /// - Throws: `Problem` 503 `server.busy` when it keeps losing (32 rounds).
    func write(_ request: ProfileRequest, userID: String) async throws -> UserRecord {
        let reload = { [store] in
            guard let user = try await store.user(id: userID) else { throw Problem.userNotFound }
            return user
        }
        return try await CompareAndSet.retrying(reload: reload) { user in
            let profile = try Self.applying(request, to: user.profile)
            do {
                return try await store.updateUser(id: userID, UserUpdate(profile: profile, precondition: .profile(user.profile)))
            } catch StoreError.notFound {
                throw Problem.userNotFound
            } catch StoreError.conflict(UserPrecondition.conflictField) {
                return nil
            }
        }
    }

    func describe(_ user: UserRecord) async throws -> ProfileResponse {
        let roles = RolePermissions.normalized(user.roles)
        let devices = try await store.devices(userID: user.id).filter { $0.status != .removed }.count
        return ProfileResponse(
            userId: user.id, email: user.email, phone: user.phone, name: user.profile.name,
            attributes: user.profile.attributes, roles: roles,
            permissions: RolePermissions(configuration.roles).permissions(for: roles), methods: user.enrolledMethods,
            devices: devices, locale: user.profile.locale, zoneinfo: user.profile.zoneinfo, restrictedUntil: user.restrictedUntil)
    }
}
