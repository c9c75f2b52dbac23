import Foundation
import SCACore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Health and graceful shutdown")
struct HealthTests {
    @Test("live answers 200; ready answers 200 with the database and 503 server.busy without it")
    func readiness() async throws {
        let server = try await TestServer()
        try await server.run { api in
            #expect(try await api.send(.get, "/health/live").status == 200)
            #expect(try await api.send(.get, "/health/ready").status == 200)

            // The database file deleted under the running server, as a lost volume would.
            try FileManager.default.removeItem(atPath: api.services.configuration.databasePath)

            let ready = try await api.send(.get, "/health/ready")
            #expect(ready.status == 503)
            #expect(ready.problem?.code == .serverBusy)
            // Liveness says the process works; a load balancer restarts it on that, not on this.
            #expect(try await api.send(.get, "/health/live").status == 200)
        }
    }

    @Test(
        "SIGTERM: the request in flight gets its answer, new connections are refused, exit 0",
        .enabled(if: (try? ServerPair.serverBinary()) != nil, "sca-server binary not built"),
        .timeLimit(.minutes(2)))
    func gracefulShutdown() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-sigterm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Default-strength scrypt and four lanes: one password check takes a second or more
        // (several in a debug build), long enough to signal while it runs.
        let server = try ServeProcess(
            directory: directory, environment: ["SCA_SCRYPT_LOG_N": "16", "SCA_SCRYPT_P": "4"])
        let port = try await server.port()
        let challenge = try await ServerInstance(port: port).startChallenge(email: "nobody@example.com")

        // The proof over a connection of the test's own, so that when its answer came is taken
        // on the reading thread.
        let body = String(
            decoding: try WireJSON.encoder().encode(ProofRequest(method: .password, credential: "a password being hashed")),
            as: UTF8.self)
        let connection = try RawConnection(port: port)
        try connection.send(
            "POST /v1/challenges/\(challenge.challengeId)/proofs HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        let answer = Task { await connection.readUntilClosed(limit: .seconds(90)) }

        // SIGTERM once the request reached the server and its hash started (the hash itself takes
        // longer); the listener closes at once, while the request in flight is still being hashed.
        let refusedAt = await server.signal(SIGTERM, after: .milliseconds(300), thenFirstRefusalOf: port, within: .seconds(30))
        let outcome = await answer.value
        #expect(refusedAt != nil, "the server kept accepting connections after SIGTERM\n\(server.log.suffix(2_000))")
        if let refusedAt {
            #expect(refusedAt < outcome.endedAt, "the proof should still have been running when the listener closed")
        }

        #expect(outcome.text.hasPrefix("HTTP/1.1 200"), "\(outcome.text)\n\(server.log.suffix(2_000))")
        let headersEnd = try #require(outcome.received.range(of: Data("\r\n\r\n".utf8)))
        let proof = try WireJSON.decoder().decode(ProofResponse.self, from: outcome.received[headersEnd.upperBound...])
        #expect(proof.status == .partial)
        let status = await server.waitForExit()
        #expect(status == 0, "exit status \(status); log:\n\(server.log.suffix(2_000))")
    }
}
