import Crypto
import Foundation
import Logging
import SCACore
import SCAStorage

/// Who may use the admin API, and for what: the bootstrap key (every scope), scoped admin keys
/// (their scopes) and back-office operators' own tokens (their roles' permissions, step-up
/// protected: ``OperatorStepUp``).
///
/// Keys are looked up in the store on every request, never cached, so a revoked key stops at
/// once on every instance sharing the database. A key's `lastUsedAt` is written at most once
/// a minute (``AdminKeyRecord/shouldRecordUse(at:)``), so admin traffic is not a write per
/// request. Presented keys and tokens are never logged nor recorded.
package struct AdminAccess: EngineService, Sendable {
    package let context: EngineContext
    let tokens: TokenService
    /// SHA-256 of the configured `adminKey`, compared in constant time with the presented
    /// key's hash (equal lengths whatever was presented); nil when there is none.
    let bootstrapKeyHash: [UInt8]?
    let roles: RolePermissions

    init(context: EngineContext, tokens: TokenService) {
        self.context = context
        self.tokens = tokens
        self.bootstrapKeyHash = context.configuration.adminKey.map(AdminKeyCredential.hash)
        self.roles = RolePermissions(context.configuration.roles)
    }

    /// Identifies the caller of a bearer credential.
    /// - Throws: `Problem` 401 `auth.unauthorized` for an unknown, wrong or revoked key;
    ///   `token.invalid` or `session.expired` for a user token that is not valid;
    ///   403 `auth.forbidden` for a token that is not a login token or grants no admin scope.
    func authenticate(_ presented: String) async throws -> AdminPrincipal {
        let presentedHash = AdminKeyCredential.hash(presented)
        if let bootstrapKeyHash, ConstantTime.equals(presentedHash, bootstrapKeyHash) {
            return .bootstrap
        }
        if let keyID = AdminKeyCredential.keyID(of: presented) {
            guard let record = try await store.adminKey(id: keyID), record.verdict(presentedHash: presentedHash) == .admitted
            else {
                // The id is not a secret; the key never appears here.
                logger.info("admin key refused: unknown, wrong or revoked", metadata: ["keyId": "\(keyID)"])
                throw Problem.unauthorized
            }
            logger.debug("admin key admitted", metadata: ["key": "\(record.name)"])
            await recordUse(of: record)
            return .key(id: record.id, name: record.name, scopes: record.scopes)
        }
        // A JWS has three segments; anything else is no credential of ours.
        guard presented.split(separator: ".", omittingEmptySubsequences: false).count == 3 else {
            logger.info("admin credential refused: neither the bootstrap key, a scoped key nor a token")
            throw Problem.unauthorized
        }
        return try await authenticateOperator(presented).principal
    }

    /// The operator an access token names, with the session it belongs to.
    /// - Throws: `token.invalid` or `session.expired` for a token that is not valid; 403
    ///   `auth.forbidden` for a token that is not the operator's own sign-in (a partner's token
    ///   of an operator is no admin credential) or whose roles grant no admin scope.
    func authenticateOperator(_ token: String) async throws -> (principal: AdminPrincipal, sessionID: String) {
        let claims = try await tokens.authorize(token: token, for: [.login], at: .operatorAccess, consume: false)
        let permissions = try await currentPermissions(of: claims.sub.value, within: claims.permissions ?? [])
        let stepUp = OperatorStepUp(
            permissions: permissions, acr: claims.acr, amr: claims.amr, authTime: claims.authTime?.value,
            issuedAt: claims.iat.value)
        return (.operator(userID: claims.sub.value, stepUp: stepUp), claims.sid)
    }

    /// The permissions an operator signed in with, narrowed to what their roles grant now: a
    /// role taken away stops an operator at once, not when the token or session ends.
    /// - Throws: 403 `auth.forbidden` when no admin scope remains.
    func currentPermissions(of userID: String, within granted: [String]) async throws -> [String] {
        let current = Set(roles.permissions(for: try await store.user(id: userID)?.roles ?? []))
        let permissions = granted.filter(current.contains)
        guard permissions.contains(where: { AdminScope(rawValue: $0) != nil }) else { throw Problem.noAdminPermission }
        return permissions
    }

    /// Admits `principal` for `scope` at the injected clock's now.
    /// - Throws: `Problem` 403 `auth.forbidden` naming what is missing; the refusal is
    ///   recorded as `admin.access_denied` (an authenticated caller tried what it may not).
    func authorize(_ principal: AdminPrincipal, for scope: AdminScope) async throws {
        guard let refusal = principal.refusal(for: scope, now: runtime.now()) else { return }
        var userID: String?
        if case .operator(let id, _) = principal { userID = id }
        logger.notice("admin access refused", metadata: ["actor": "\(principal.auditActor)", "scope": "\(scope.rawValue)"])
        await audit.record(
            .adminAccessDenied, outcome: "rejected", userID: userID,
            details: ["scope": scope.rawValue, "reason": refusal.detail ?? refusal.title])
        throw refusal
    }

    /// Writes the key's `lastUsedAt` when it is a minute old or more. A failed write is logged
    /// (by key name) and does not refuse the request: the key was valid.
    private func recordUse(of record: AdminKeyRecord) async {
        let now = runtime.now()
        guard record.shouldRecordUse(at: now) else { return }
        do {
            try await store.recordAdminKeyUse(id: record.id, now: now)
        } catch {
            logger.warning(
                "admin key use not recorded",
                metadata: ["key": "\(record.name)", "error": "\(String(describing: type(of: error)))"])
        }
    }
}
