import Foundation
import SCACore

/// Keeps the session's tokens: saves them, refreshes the access token before it expires, ends
/// the session.
///
/// An actor with at most one refresh in flight: two callers that find the token stale at once
/// must not both present the refresh token, since the server treats a second use of a rotated
/// refresh token as theft and revokes the whole session.
actor SessionKeeper {
    /// `{"revoked":true}`.
    private struct RevokeAnswer: Decodable {}

    /// The part of an access token's claims the SDK reads: only to name the user in a challenge,
    /// never to trust anything (the server checks every proof anyway).
    private struct SubjectClaims: Decodable { var sub: String }

    /// Problem codes after which the stored session is worth nothing.
    static let sessionEndingCodes: Set<ProblemCode> = [.tokenInvalid, .tokenReused, .sessionExpired, .unauthorized]

    let transport: APITransport
    let store: any TokenStore
    let refreshMargin: TimeInterval
    let now: @Sendable () -> Date
    private var refreshing: Task<StoredTokens, any Error>?

    init(transport: APITransport, store: any TokenStore, refreshMargin: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.transport = transport
        self.store = store
        self.refreshMargin = refreshMargin
        self.now = now
    }

    /// Stores the tokens of a completed challenge that opened a session.
    func save(_ tokens: TokenResponse, receivedAt: Date) async throws {
        try await store.save(
            StoredTokens(
                accessToken: tokens.accessToken, refreshToken: tokens.refreshToken,
                expiresAt: receivedAt.addingTimeInterval(TimeInterval(tokens.expiresIn)), operation: tokens.operation))
    }

    /// The stored access token, refreshed first when it expires within the margin.
    /// - Throws: ``SCAClientError/notSignedIn`` when there is no session or the server ended it.
    func validAccessToken() async throws -> String {
        if let refreshing { return try await refreshing.value.accessToken }
        guard let stored = try await store.load() else { throw SCAClientError.notSignedIn }
        if stored.expiresAt.timeIntervalSince(now()) > refreshMargin { return stored.accessToken }
        // Another caller may have started a refresh while this one was loading.
        if let refreshing { return try await refreshing.value.accessToken }
        guard let refreshToken = stored.refreshToken else {
            try await store.clear()
            throw SCAClientError.notSignedIn
        }
        // Unstructured, so that a caller's cancellation cannot drop the rotated refresh token
        // between the server's answer and the store.
        let task = Task { try await self.refresh(with: refreshToken) }
        refreshing = task
        defer { refreshing = nil }
        return try await task.value.accessToken
    }

    /// Marks `accessToken` as used up (the server consumed it), so the next call refreshes.
    func markSpent(_ accessToken: String) async throws {
        guard var stored = try await store.load(), stored.accessToken == accessToken else { return }
        stored.expiresAt = .distantPast
        try await store.save(stored)
    }

    /// The `sub` of the stored access token.
    /// - Throws: ``SCAClientError/notSignedIn`` when there is none.
    func signedInUserID() async throws -> String {
        guard let stored = try await store.load() else { throw SCAClientError.notSignedIn }
        let parts = stored.accessToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let claims = try? JSONDecoder().decode(SubjectClaims.self, from: Data(payload))
        else { throw SCAClientError.notSignedIn }
        return claims.sub
    }

    /// Revokes the session on the server and clears the store, even when the server cannot be
    /// told (the local tokens are gone either way; the server ends an idle session by itself).
    func signOut() async throws {
        if let refreshing { _ = try? await refreshing.value }
        guard let stored = try await store.load() else { return }
        do {
            // The refresh token first: an expired access token may no longer name its session.
            let _: RevokeAnswer = try await transport.send(
                .post, "v1/tokens/revoke", body: RevokeRequest(token: stored.refreshToken ?? stored.accessToken))
        } catch {
            try await store.clear()
            throw error
        }
        try await store.clear()
    }

    private func refresh(with refreshToken: String) async throws -> StoredTokens {
        let sentAt = now()
        let answer: TokenResponse
        do {
            answer = try await transport.send(.post, "v1/tokens/refresh", body: RefreshRequest(refreshToken: refreshToken))
        } catch let error as SCAClientError where error.problemCode.map(Self.sessionEndingCodes.contains) == true {
            try await store.clear()
            throw SCAClientError.notSignedIn
        }
        let stored = StoredTokens(
            accessToken: answer.accessToken, refreshToken: answer.refreshToken,
            expiresAt: sentAt.addingTimeInterval(TimeInterval(answer.expiresIn)), operation: answer.operation)
        try await store.save(stored)
        return stored
    }
}
