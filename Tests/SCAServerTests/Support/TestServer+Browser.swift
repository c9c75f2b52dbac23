import Foundation
import SCAEngine

extension TestServer {
    /// Runs `body` against a server listening on a free port of `localhost`, whose public address
    /// and WebAuthn relying party are that origin (a browser's passkey ceremony needs
    /// `http://localhost:PORT`), configured further by `customize`; `screenshots` is made first.
    static func runForBrowser(
        screenshots: URL, _ customize: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (_ api: APIClient, _ base: String) async throws -> Void
    ) async throws {
        let port = try WebDriver.freePort()
        let base = "http://localhost:\(port)"
        let server = try await TestServer {
            $0.publicBaseURL = base
            $0.webauthnRPID = "localhost"
            $0.webauthnOrigins = [base]
            customize(&$0)
        }
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        try await server.runListening(port: port, base: base) { api in try await body(api, base) }
    }
}
