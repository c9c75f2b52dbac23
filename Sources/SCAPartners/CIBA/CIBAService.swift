import Crypto
import Foundation
import JWTKit
import SCACore
import SCAEngine
import SCAStorage

/// OpenID Client-Initiated Backchannel Authentication, poll mode: a facade over
/// decoupled operations for clients that speak OpenID. `POST /oauth2/bc-authorize` creates a
/// `login` operation for the user's phone; the client polls `POST /oauth2/token` with
/// `grant_type=urn:openid:params:grant-type:ciba` until the phone answers.
///
/// `auth_req_id` is the operation id with the granted scopes and a MAC under the server key, so
/// the token endpoint needs nothing stored beyond the operation (on any instance).
struct CIBAService: EngineService, Sendable {
    let context: EngineContext
    let tokens: TokenService

    static let grantType = "urn:openid:params:grant-type:ciba"
    /// Seconds a client waits between polls; faster is `slow_down`.
    static let interval = 5
    private static let macPurpose = "ciba-auth-req-id"

    /// `POST /oauth2/bc-authorize` after client authentication.
    /// - Parameter create: creates the operation for this client with the scopes its approval
    ///   grants (``OperationService/create(_:by:scopes:)``).
    func authorize(
        _ form: [String: String], client: PartnerClientRecord,
        create: (CreateOperationRequest, [String]) async throws -> OperationResponse
    ) async throws -> CIBAAuthorizeResponse {
        guard client.secretHash != nil else {
            throw OAuthError(status: 400, error: "unauthorized_client", description: "CIBA needs a confidential client")
        }
        let scopes = (form["scope"] ?? "").split(separator: " ").map(String.init)
        guard scopes.contains("openid") else { throw OAuthError(status: 400, error: "invalid_scope", description: "scope must include openid") }
        guard Set(scopes).isSubset(of: client.scopes) else {
            throw OAuthError(status: 400, error: "invalid_scope", description: "a scope is not allowed for this client")
        }
        guard form["id_token_hint"] == nil, form["login_hint_token"] == nil, let hint = form["login_hint"], !hint.isEmpty else {
            throw OAuthError.invalidRequest("login_hint (an e-mail or a user id) is required; other hints are not supported")
        }
        var expiresIn: Int?
        if let requested = form["requested_expiry"] {
            guard let seconds = Int(requested), (1...OperationService.maximumLifetime).contains(seconds) else {
                throw OAuthError.invalidRequest("requested_expiry must be 1 to \(OperationService.maximumLifetime) seconds")
            }
            expiresIn = seconds
        }
        let user = hint.contains("@") ? UserReference(email: hint) : UserReference(userId: hint)
        let created: OperationResponse
        do {
            created = try await create(
                CreateOperationRequest(user: user, operation: .login, bindingMessage: form["binding_message"], expiresIn: expiresIn),
                scopes)
        } catch let problem as Problem {
            switch problem.code {
            case .userNotFound:
                throw OAuthError(status: 400, error: "unknown_user_id", description: "no such user for this client")
            case .requestInvalid where problem.detail?.contains("bindingMessage") == true:
                throw OAuthError(
                    status: 400, error: "invalid_binding_message",
                    description: (problem.detail ?? "").replacingOccurrences(of: "bindingMessage", with: "binding_message"))
            case .requestInvalid:
                throw OAuthError.invalidRequest(problem.detail ?? problem.title)
            case .operationNoDevice:
                throw OAuthError.invalidRequest("the user has no device that can approve")
            default:
                throw problem
            }
        }
        return CIBAAuthorizeResponse(
            authReqID: authRequestID(operationID: created.operationId, scopes: scopes),
            expiresIn: max(1, Int(created.expiresAt.timeIntervalSince(runtime.now()).rounded(.up))), interval: Self.interval)
    }

    /// `POST /oauth2/token` with the CIBA grant: `authorization_pending` while the phone has
    /// not answered (`slow_down` when polled within `interval`), `expired_token`,
    /// `access_denied` (rejected, failed, canceled), or the tokens, once.
    func token(_ form: [String: String], client: PartnerClientRecord) async throws -> OAuthTokenResponse {
        guard let presented = form["auth_req_id"], let (operationID, scopes) = verified(presented),
            let operation = try await store.operation(id: operationID), operation.clientID == client.id
        else { throw OAuthError.invalidGrant("auth_req_id is not valid for this client") }
        let now = runtime.now()
        switch operation.status {
        case .pending where now >= operation.expiresAt, .expired:
            throw OAuthError(status: 400, error: "expired_token", description: "the request expired before the user answered")
        case .pending:
            let budget = RateBudget(
                key: "ciba.poll:\(operationID)", scope: "ciba", limit: 1, window: TimeInterval(Self.interval))
            if case .refused = try await store.consumeRateBudgets([budget], now: now) {
                throw OAuthError(status: 400, error: "slow_down", description: "poll at most every \(Self.interval) seconds")
            }
            throw OAuthError(status: 400, error: "authorization_pending", description: "the user has not answered yet")
        case .rejected, .failed, .canceled:
            throw OAuthError(status: 400, error: "access_denied", description: "the user did not approve")
        case .approved:
            guard let sealed = operation.sealedToken else { throw OAuthError.invalidGrant("no token") }
            // Once: a second poll after the tokens were handed out gets nothing.
            let burn = Array(SHA256.hash(data: Array("ciba-delivered|\(operationID)".utf8)))
            guard try await store.markSignatureUsed(burn, expiresAt: operation.expiresAt.addingTimeInterval(86_400), now: now) else {
                throw OAuthError.invalidGrant("the tokens of this auth_req_id were issued already")
            }
            let accessToken = String(decoding: try box.open(sealed, context: OperationService.sealingContext), as: UTF8.self)
            let claims = try await tokens.handOff(accessToken, to: client.id)
            let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
            let roles = try await tokens.roles(of: operation.userID)
            let idToken = try tokens.signer.sign(IDTokenClaims(
                iss: IssuerClaim(value: configuration.baseURL), sub: SubjectClaim(value: operation.userID),
                aud: AudienceClaim(value: [client.id]), azp: client.id, iat: IssuedAtClaim(value: issuedAt),
                exp: ExpirationClaim(value: issuedAt.addingTimeInterval(OAuthService.idTokenLifetime)),
                authTime: Int((operation.finishedAt ?? now).timeIntervalSince1970), nonce: nil, acr: claims.acr,
                amr: claims.amr.map(\.rawValue), sid: claims.sid, roles: roles.roles, permissions: roles.permissions,
                profile: ProfileClaims(try await store.user(id: operation.userID), scopes: scopes)))
            await audit.record(
                .tokenIssued, outcome: "ciba", userID: operation.userID, sessionID: claims.sid,
                details: ["clientId": client.id, "operationId": operationID])
            return OAuthTokenResponse(
                accessToken: accessToken, expiresIn: max(0, Int(claims.exp.value.timeIntervalSince(now))), refreshToken: nil,
                idToken: idToken, scope: scopes.joined(separator: " "))
        }
    }

    /// `<operation id>.<base64url scopes>.<MAC>`.
    private func authRequestID(operationID: String, scopes: [String]) -> String {
        let body = "\(operationID).\(Base64URL.encode(Array(scopes.joined(separator: " ").utf8)))"
        return "\(body).\(Base64URL.encode(box.mac(Array(body.utf8), purpose: Self.macPurpose)))"
    }

    private func verified(_ id: String) -> (String, [String])? {
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let mac = Base64URL.decode(String(parts[2])),
            ConstantTime.equals(box.mac(Array("\(parts[0]).\(parts[1])".utf8), purpose: Self.macPurpose), mac),
            let scopes = Base64URL.decode(String(parts[1]))
        else { return nil }
        return (String(parts[0]), String(decoding: scopes, as: UTF8.self).split(separator: " ").map(String.init))
    }
}

/// The answer of `POST /oauth2/bc-authorize`.
struct CIBAAuthorizeResponse: Encodable, Sendable {
    var authReqID: String
    var expiresIn: Int
    var interval: Int

    enum CodingKeys: String, CodingKey {
        case authReqID = "auth_req_id"
        case expiresIn = "expires_in"
        case interval
    }
}
