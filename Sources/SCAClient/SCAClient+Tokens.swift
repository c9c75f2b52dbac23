import Foundation
import SCACore

extension SCAClient {
    /// The stored access token, refreshed first (rotating the refresh token) when it expires
    /// within ``Configuration/refreshMargin``.
    ///
    /// - Returns: a bearer token for the API.
    /// - Throws: ``SCAClientError/notSignedIn`` when there is no session or the server ended it
    ///   (the store is then cleared); `URLError` when the server cannot be reached.
    public func validAccessToken() async throws -> String {
        try await session.validAccessToken()
    }

    /// The roles and permissions of the current session, from the stored access token: what
    /// the server signed at sign-in or at the last refresh (a role change shows after the
    /// next refresh). Asks nothing of the server, so it neither refreshes nor extends the
    /// session.
    ///
    /// - Returns: nil when not signed in.
    /// - Throws: the token store's error.
    public func sessionAccess() async throws -> SessionAccess? {
        guard let tokens = try await tokenStore.load() else { return nil }
        return SessionAccess(accessToken: tokens.accessToken)
    }

    /// Asks the server whether a token is active, optionally for one operation and transaction.
    ///
    /// - Parameters:
    ///   - token: an access token.
    ///   - transaction: active only if the token was issued for exactly this transaction.
    ///   - operation: active only if the token was issued for this operation.
    ///   - consume: burn the token: a payment token is accepted this way once, ever.
    /// - Returns: `active` and, when active, the claims.
    /// - Throws: ``SCAClientError/server(_:)`` (`request.invalid` for a malformed transaction);
    ///   `URLError`.
    public func introspect(
        _ token: String, transaction: Transaction? = nil, operation: OperationKind? = nil, consume: Bool = false
    ) async throws -> IntrospectResponse {
        try await transport.send(
            .post, "v1/tokens/introspect",
            body: IntrospectRequest(token: token, transaction: transaction, operation: operation, consume: consume ? true : nil))
    }

    /// Revokes the session's tokens on the server and clears the token store. The device binding
    /// and keys are kept: a cold start signs in again. Does nothing when not signed in.
    ///
    /// - Throws: `URLError` or ``SCAClientError`` when the server could not be told (the local
    ///   tokens are cleared all the same); the token store's error.
    public func signOut() async throws {
        try await session.signOut()
    }

    /// Runs `call` with a valid access token; when the server refuses the token (used up, or the
    /// session ended), refreshes once and tries again, which ends in ``SCAClientError/notSignedIn``
    /// when the session is over. The server refuses before acting, so the second try is safe.
    func withAccessToken<Answer: Sendable>(_ call: (String) async throws -> Answer) async throws -> Answer {
        let token = try await session.validAccessToken()
        do {
            return try await call(token)
        } catch let error as SCAClientError where error.problemCode.map(SessionKeeper.sessionEndingCodes.contains) == true {
            try await session.markSpent(token)
            return try await call(try await session.validAccessToken())
        }
    }
}
