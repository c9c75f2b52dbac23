import Foundation
import SCACore
import Synchronization
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
        // Default-strength scrypt and four lanes: one password check takes about a second, long
        // enough to signal while it runs.
        let server = try ServeProcess(
            directory: directory, environment: ["SCA_SCRYPT_LOG_N": "16", "SCA_SCRYPT_P": "4"])
        let port = try await server.port()
        let instance = ServerInstance(port: port)
        let challenge = try await instance.startChallenge(email: "nobody@example.com")

        let answered = Atomic<Bool>(false)
        let proof = Task {
            defer { answered.store(true, ordering: .sequentiallyConsistent) }
            return try await instance.prove(challenge.challengeId, .password, "a password being hashed")
        }
        // Let the request reach the server and its hash start (the hash itself takes longer).
        try await Task.sleep(for: .milliseconds(300))
        server.signal(SIGTERM)

        // The listener closes at once; the request in flight is still being hashed meanwhile.
        var refused = false
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if !ServeProcess.acceptsConnections(port: port) {
                refused = true
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(refused, "the server kept accepting connections after SIGTERM")
        let refusedWhileInFlight = !answered.load(ordering: .sequentiallyConsistent)

        let answer = try await proof.value
        #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))\n\(server.log.suffix(2_000))")
        #expect(try answer.decode(ProofResponse.self).status == .partial)
        #expect(refusedWhileInFlight, "the proof should still have been running when the listener closed")
        let status = await server.waitForExit()
        #expect(status == 0, "exit status \(status); log:\n\(server.log.suffix(2_000))")
    }
}
