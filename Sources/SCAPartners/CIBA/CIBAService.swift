import Crypto
import Foundation
import JWTKit
import SCACore
import SCAEngine
import SCAStorage

/// OpenID Client-Initiated Backchannel Authentication, poll and ping modes: a facade over
/// decoupled operations for clients that speak OpenID. `POST /oauth2/bc-authorize` creates a
/// `login` operation for the user's phone; the client polls `POST /oauth2/token` with
/// `grant_type=urn:openid:params:grant-type:ciba` until the phone answers, or, in ping mode,
/// is told at its notification endpoint when it has (through the partner outbox) and then asks.
///
/// `auth_req_id` (``CIBARequestID``) is the operation id with the granted scopes and a MAC
/// under the server key, so the token endpoint needs nothing stored beyond the operation (on
/// any instance).
struct CIBAService: EngineService, Sendable {
    let context: EngineContext
    let tokens: TokenService

    static let grantType = "urn:openid:params:grant-type:ciba"
    /// Seconds a client waits between polls; faster is `slow_down`.
    static let interval = 5
    /// The longest `client_notification_token` taken: it is stored, sealed, with the request.
    static let maxNotificationTokenLength = 1024

    /// `POST /oauth2/bc-authorize` after client authentication.
    /// - Parameter create: creates the operation for this client with the scopes its approval
    ///   grants and, in ping mode, the client's notification token
    ///   (``OperationService/create(_:by:scopes:notificationToken:)``).
    func authorize(
        _ form: [String: String], client: PartnerClientRecord,
        create: (CreateOperationRequest, [String], String?) async throws -> OperationResponse
    ) async throws -> CIBAAuthorizeResponse {
        guard PartnerService.AuthenticationMethod(of: client) != .none else {
            throw OAuthError(status: 400, error: "unauthorized_client", description: "CIBA needs a confidential client")
        }
        let notificationToken = try Self.notificationToken(in: form, for: client)
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
                scopes, notificationToken)
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
            authReqID: CIBARequestID.make(operationID: created.operationId, scopes: scopes, box: box),
            expiresIn: max(1, Int(created.expiresAt.timeIntervalSince(runtime.now()).rounded(.up))), interval: Self.interval)
    }

    /// `POST /oauth2/token` with the CIBA grant: `authorization_pending` while the phone has
    /// not answered (`slow_down` when polled within `interval`), `expired_token`,
    /// `access_denied` (rejected, failed, canceled), or the tokens, once.
    func token(_ form: [String: String], client: PartnerClientRecord) async throws -> OAuthTokenResponse {
        guard let presented = form["auth_req_id"], let (operationID, scopes) = CIBARequestID.verified(presented, box: box),
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

    /// The `client_notification_token` of a client in ping mode (required there, CIBA Core 7.1):
    /// a bearer token for its notification endpoint, so printable ASCII without spaces, at
    /// most ``maxNotificationTokenLength`` characters. Nil for a client in poll mode, which is
    /// never pinged.
    static func notificationToken(in form: [String: String], for client: PartnerClientRecord) throws -> String? {
        guard client.cibaNotificationEndpoint != nil else { return nil }
        guard let token = form["client_notification_token"], !token.isEmpty else {
            throw OAuthError.invalidRequest("client_notification_token is required: this client is registered for ping mode")
        }
        guard token.utf8.count <= maxNotificationTokenLength, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw OAuthError.invalidRequest(
                "client_notification_token must be 1 to \(maxNotificationTokenLength) printable ASCII characters without spaces")
        }
        return token
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
