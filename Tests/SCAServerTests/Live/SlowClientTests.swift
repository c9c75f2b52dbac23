import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCAServer
import Testing

/// Slow and greedy clients against the real server on a loopback socket:
/// a body that stops or trickles is answered `408`, headers that never end are cut off, and
/// connections beyond the limit are closed at once while the server keeps serving.
@Suite("Slow clients: read and idle timeouts, connection limit")
struct SlowClientTests {
    /// A request whose body announces 40 bytes.
    static let head = "POST /v1/challenges HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n"

    @Test("headers and half a body: 408 request.timeout and closed within the read timeout")
    func halfBody() async throws {
        try await Self.withServer { port in
            let connection = try RawConnection(port: port)
            try connection.send(Self.head + #"{"operation": "lo"#)
            let outcome = await connection.readUntilClosed(limit: .seconds(10))
            #expect(outcome.closed)
            #expect(outcome.text.hasPrefix("HTTP/1.1 408"), "\(outcome.text)")
            #expect(outcome.text.contains("request.timeout"))
            // The 408 itself shows the read timeout fired (the 2 s idle timeout closes without one).
            #expect(outcome.elapsed < .seconds(5), "\(outcome.elapsed)")
        }
    }

    @Test("a body trickling in byte by byte is bounded by the read timeout, not reset by each byte")
    func tricklingBody() async throws {
        try await Self.withServer { port in
            let connection = try RawConnection(port: port)
            try connection.send(Self.head)
            let start = ContinuousClock.now
            let reader = Task { await connection.readUntilClosed(limit: .seconds(10)) }
            for byte in #"{"operation"#.map(String.init) {
                try? connection.send(byte)
                try await Task.sleep(for: .milliseconds(300))
                if ContinuousClock.now - start > .seconds(3) { break }
            }
            let outcome = await reader.value
            #expect(outcome.closed)
            #expect(outcome.text.hasPrefix("HTTP/1.1 408"), "\(outcome.text)")
            #expect(outcome.elapsed < .seconds(5), "\(outcome.elapsed)")
        }
    }

    @Test("partial headers: the connection is closed within the idle timeout")
    func partialHeaders() async throws {
        try await Self.withServer { port in
            let connection = try RawConnection(port: port)
            try connection.send("POST /v1/challenges HTTP/1.1\r\nHost: localhost\r\nContent-Ty")
            let outcome = await connection.readUntilClosed(limit: .seconds(10))
            #expect(outcome.closed)
            #expect(outcome.received.isEmpty || outcome.text.hasPrefix("HTTP/1.1 408"))
            #expect(outcome.elapsed < .seconds(6), "\(outcome.elapsed)")

            // A connection that sends nothing at all goes the same way.
            let silent = try RawConnection(port: port)
            let nothing = await silent.readUntilClosed(limit: .seconds(10))
            #expect(nothing.closed)
            #expect(nothing.elapsed < .seconds(6), "\(nothing.elapsed)")
        }
    }

    @Test("connections beyond maxConnections are closed at once; the server serves again when they go")
    func connectionLimit() async throws {
        // The idle timeout is far beyond every wait here, so a connection closed within one was
        // closed by the limit. The waits end as soon as the server acts; their bounds only stop
        // a server that never does (a machine loaded by the whole suite took over ten seconds
        // to answer at times).
        try await Self.withServer(maxConnections: 3, idleTimeout: 600) { port in
            var held: [RawConnection] = []
            for _ in 0..<3 {
                let connection = try RawConnection(port: port)
                // A complete request and its answer prove the server has taken this connection.
                try connection.send("GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let answered = await connection.read(limit: .seconds(60)) { $0.contains("\r\n\r\n") && $0.hasSuffix("}") }
                #expect(answered.text.hasPrefix("HTTP/1.1 200"), "\(answered)")
                #expect(!answered.closed)
                held.append(connection)
            }
            for _ in 0..<3 {
                let excess = try RawConnection(port: port)
                try? excess.send("GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let refused = await excess.readUntilClosed(limit: .seconds(60))
                #expect(refused.closed, "\(refused)")
                #expect(!refused.text.contains("200"), "\(refused.text)")
            }
            held.removeAll()  // closes them

            // The places come back once the server has seen the closes.
            let deadline = ContinuousClock.now + .seconds(60)
            var served = false
            while !served, ContinuousClock.now < deadline {
                let connection = try RawConnection(port: port)
                try? connection.send("GET /health/live HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                served = await connection.readUntilClosed(limit: .seconds(5)).text.hasPrefix("HTTP/1.1 200")
                if !served { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(served)
        }
    }

    @Test("the slow-client settings are validated")
    func settingsValidated() throws {
        let loader = ConfigurationLoader()
        for flags in [
            ["requestReadTimeout": "0"], ["connectionIdleTimeout": "-1"], ["maxConnections": "0"],
            ["requestReadTimeout": "soon"], ["connectionIdleTimeout": "3601"],
        ] {
            #expect(throws: ConfigurationError.self, "\(flags)") {
                try loader.load(file: nil, environment: [:], flags: flags)
            }
        }
        let configured = try loader.load(
            file: nil, environment: ["SCA_REQUEST_READ_TIMEOUT": "5", "SCA_CONNECTION_IDLE_TIMEOUT": "7", "SCA_MAX_CONNECTIONS": "9"],
            flags: [:])
        #expect(configured.requestReadTimeout == 5)
        #expect(configured.connectionIdleTimeout == 7)
        #expect(configured.maxConnections == 9)
        let defaults = ServerConfiguration()
        #expect(defaults.requestReadTimeout == 30 && defaults.connectionIdleTimeout == 30 && defaults.maxConnections == 1_024)
    }

    /// Runs the real server (``SCAServices/application(onServerRunning:)``) on a free loopback
    /// port with a 1 s read timeout, then stops it.
    /// - Parameter customize: applied last, over these tests' own settings.
    static func withServer(
        maxConnections: Int = 100, idleTimeout: Int = 2, _ customize: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (Int) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-slow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory.path
        configuration.passwordHashing = .insecureFastForTesting
        configuration.port = 0
        configuration.requestReadTimeout = 1
        configuration.connectionIdleTimeout = idleTimeout
        configuration.maxConnections = maxConnections
        customize(&configuration)
        let services = try await SCAServices.make(configuration: configuration)
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = try services.application { port in portContinuation.yield(port) }
        let server = Task { try await app.run() }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        try await body(port)
        server.cancel()
        _ = try? await server.value
    }
}
