import Foundation

// Passkeys: Chromium's virtual authenticator through WebDriver's WebAuthn extension,
// and scripts run in the page (to make a credential the way a registration page would).
extension WebDriver {
    /// Adds a virtual platform authenticator (CTAP2, internal transport, resident keys, user
    /// verification that always succeeds) to the session; returns its id.
    @discardableResult
    func addVirtualAuthenticator() async throws -> String {
        let value = try await command(
            "POST", "webauthn/authenticator",
            [
                "protocol": "ctap2", "transport": "internal", "hasResidentKey": true, "hasUserVerification": true,
                "isUserVerified": true, "automaticPresenceSimulation": true,
            ])
        guard let id = value as? String else { throw WebDriverError(message: "no authenticator id: \(String(describing: value))") }
        return id
    }

    /// The credentials the virtual authenticator holds.
    func virtualCredentials(_ authenticatorID: String) async throws -> [[String: Any]] {
        try await command("GET", "webauthn/authenticator/\(authenticatorID)/credentials", nil) as? [[String: Any]] ?? []
    }

    /// Runs `script` in the page as an async function body (the last argument is the callback)
    /// and returns what it passed back.
    func executeAsync(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await command("POST", "execute/async", ["script": script, "args": arguments])
    }
}
