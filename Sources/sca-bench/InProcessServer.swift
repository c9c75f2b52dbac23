import Foundation
import Hummingbird
import Logging
import SCACore
import SCAEngine
import SCAServer
import ServiceLifecycle

/// A real `sca-server` inside the harness's process: SQLite in a temporary directory, HTTP on a
/// free loopback port, the admin API behind a random key. Clients reach it over real sockets,
/// so the figures include HTTP parsing and the loopback, as with a separate process.
enum InProcessServer {
    /// Starts the server, runs `body` with its URL and admin key, then stops the server and
    /// deletes its data.
    static func run<T: Sendable>(
        scrypt: ScryptChoice, _ body: @escaping @Sendable (_ server: URL, _ adminKey: String) async throws -> T
    ) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.dataDirectory = directory.path
        configuration.passwordHashing = scrypt.parameters
        // Every simulated client comes from 127.0.0.1: a per-address budget would measure the
        // limit, not the server. (No flow of the bench sends codes.)
        configuration.rateLimits.challengesPerClient = []
        let adminKey = Base64URL.encode((0..<24).map { _ in UInt8.random(in: .min ... .max) })
        configuration.adminKey = adminKey
        // Warnings only: a line per request would cost more than some flows.
        var logger = Logger(label: "sca-bench.server")
        logger.logLevel = .warning
        let services = try await SCAServices.make(configuration: configuration, logger: logger)

        let (ports, announce) = AsyncStream<Int>.makeStream()
        let app = try services.application { port in announce.yield(port) }
        // A service group of its own, without signal handlers: the run ends it by a graceful
        // shutdown, as SIGTERM would, so open connections are closed rather than cancelled.
        let serviceGroup = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                // The background services of `serve` beside the server, as `serve` runs them.
                services: services.backgroundServices() + [app], gracefulShutdownSignals: [], logger: logger))
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                // Ends the stream if the server stops (or never starts), so the wait below ends too.
                defer { announce.finish() }
                try await serviceGroup.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                _ = try await group.next()
                throw BenchError("the in-process server stopped before it was listening")
            }
            guard let url = URL(string: "http://127.0.0.1:\(port)/") else { throw BenchError("no URL for port \(port)") }
            group.addTask { try await body(url, adminKey) }
            // The first task to finish should be the body: the server runs until shut down.
            let outcome: T
            do {
                guard let finished = try await group.next(), let result = finished else {
                    throw BenchError("the in-process server stopped during the run")
                }
                outcome = result
            } catch {
                group.cancelAll()
                throw error
            }
            await serviceGroup.triggerGracefulShutdown()
            try await group.waitForAll()
            return outcome
        }
    }
}
