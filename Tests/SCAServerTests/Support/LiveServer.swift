import Foundation
import Hummingbird
import HummingbirdTesting
import SCAEngine
import SCAServer
import Testing

/// A real server on a loopback socket (ephemeral port) with the real clock: for clients in
/// another process, which cannot share TestServer's injected clock (TOTP codes, expiry).
struct LiveServer {
    let services: SCAServices
    let directory: URL

    /// - Parameter customize: changes to the configuration (exemptions).
    init(_ customize: (inout ServerConfiguration) -> Void = { _ in }) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-live-\(UUID().uuidString)")
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory.path
        configuration.passwordHashing = .insecureFastForTesting
        customize(&configuration)
        services = try await SCAServices.make(configuration: configuration)
    }

    /// Serves on 127.0.0.1 while `body` runs with the base URL, then removes the data directory.
    func run(_ body: @escaping @Sendable (URL) async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = Application(router: services.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        // Messages to users are delivered in the background, as by `serve`.
        try await services.withBackgroundServices(.messages) {
            try await app.test(.live) { client in
                let port = try #require(client.port)
                try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
            }
        }
    }
}
