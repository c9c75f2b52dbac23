import Foundation
import SCACore

extension SCAClient {
    /// Everything the user's account page lists, in one call: devices, passkeys, the user's own
    /// open sessions (``AccountSessionResponse/current`` marks this one), the partners holding a
    /// session of the user with what they were granted, consents, trusted beneficiaries, the
    /// recovery sheet's state, and recent activity (sign-ins, failed attempts without naming
    /// the element, payments with amount and payee, devices and passkeys added, each with its
    /// time and the client's network).
    ///
    /// - Returns: the overview.
    /// - Throws: ``SCAClientError/notSignedIn``; ``SCAClientError/server(_:)``; `URLError`.
    public func accountOverview() async throws -> AccountOverviewResponse {
        try await withAccessToken { token in try await transport.send(.get, "v1/me/overview", bearer: token) }
    }

    /// Ends one of the user's own sessions, on every server instance: another device's app,
    /// another browser. Ending this client's own session signs it out on the server (call
    /// ``signOut()`` to forget its tokens here too).
    ///
    /// - Parameter sessionID: a ``AccountSessionResponse/sessionId`` of ``accountOverview()``.
    /// - Returns: how many sessions ended (one).
    /// - Throws: ``SCAClientError/notSignedIn``; ``SCAClientError/server(_:)`` with
    ///   `session.not_found` for a session that is not the user's own and open; `URLError`.
    @discardableResult
    public func endSession(_ sessionID: String) async throws -> SessionsEndedResponse {
        try await withAccessToken { token in
            try await transport.send(.delete, "v1/me/sessions/\(APITransport.escape(sessionID))", bearer: token)
        }
    }

    /// Ends every session of the user's own but this client's. Partners keep theirs:
    /// ``revokePartnerAccess(_:)`` takes a partner's access back.
    ///
    /// - Returns: how many sessions ended.
    /// - Throws: ``SCAClientError/notSignedIn``; ``SCAClientError/server(_:)``; `URLError`.
    @discardableResult
    public func endOtherSessions() async throws -> SessionsEndedResponse {
        try await withAccessToken { token in try await transport.send(.delete, "v1/me/sessions", bearer: token) }
    }

    /// Takes a partner's access back: every session it holds for the user ends, and every
    /// consent it still waits on is refused.
    ///
    /// - Parameter clientID: a ``PartnerAccessResponse/clientId`` of ``accountOverview()``.
    /// - Returns: what ended.
    /// - Throws: ``SCAClientError/notSignedIn``; ``SCAClientError/server(_:)`` with
    ///   `partner.access_not_found` when the partner holds nothing of the user's; `URLError`.
    @discardableResult
    public func revokePartnerAccess(_ clientID: String) async throws -> PartnerAccessRevokedResponse {
        try await withAccessToken { token in
            try await transport.send(.delete, "v1/me/partners/\(APITransport.escape(clientID))", bearer: token)
        }
    }

    /// Revokes a consent given to a partner: an open one is refused; an accepted one's token
    /// stops working.
    ///
    /// - Parameter consentID: a ``AccountConsentResponse/consentId`` of ``accountOverview()``.
    /// - Returns: the consent after the change.
    /// - Throws: ``SCAClientError/notSignedIn``; ``SCAClientError/server(_:)`` with
    ///   `consent.not_found`, or `consent.closed` when nothing of it is left to revoke; `URLError`.
    @discardableResult
    public func revokeConsent(_ consentID: String) async throws -> AccountConsentResponse {
        try await withAccessToken { token in
            try await transport.send(.delete, "v1/me/consents/\(APITransport.escape(consentID))", bearer: token)
        }
    }
}
