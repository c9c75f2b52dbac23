import Crypto
import Foundation
import GRDB
import SCACore
import SCAEngine
import Testing

/// `sca-server audit checkpoint` and `audit verify --checkpoint`, as processes on a real data
/// directory: the chain alone cannot show that its newest entries were cut; a checkpoint can.
@Suite("sca-server audit checkpoints, as a process")
struct AuditCheckpointCommandTests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs the binary to the end. Awaited (``ChildProcess/run``), never waited for on a thread
    /// of the cooperative pool that the other tests and the in-process servers run on.
    static func run(_ arguments: [String]) async throws -> Run {
        let run = try await ChildProcess.run(
            try ServerPair.serverBinary(), arguments: arguments,
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SCA_") }, standardInput: .null)
        return Run(status: run.status, output: run.outputText, errors: run.errorText)
    }

    /// The server's published keys, by key id, from `GET /.well-known/jwks.json`.
    static func publishedKeys(_ api: APIClient) async throws -> [String: P256.Signing.PublicKey] {
        let jwks = try await api.send(.get, "/.well-known/jwks.json").json
        var keys: [String: P256.Signing.PublicKey] = [:]
        for key in try #require(jwks["keys"] as? [[String: Any]]) {
            let x = try #require((key["x"] as? String).flatMap(Base64URL.decode))
            let y = try #require((key["y"] as? String).flatMap(Base64URL.decode))
            let keyID = try #require(key["kid"] as? String)
            keys[keyID] = try P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
        }
        return keys
    }

    @Test(
        "a checkpoint exposes entries cut from the end, which plain verify cannot; a forged one fails on its signature",
        .enabled(if: (try? ServerPair.serverBinary()) != nil, "sca-server binary not built"))
    func truncationDetected() async throws {
        let server = try await TestServer()
        let checkpointFile = FileManager.default.temporaryDirectory.appendingPathComponent("sca-checkpoint-\(UUID().uuidString).jws")
        defer { try? FileManager.default.removeItem(at: checkpointFile) }
        try await server.run { api in
            let dataDir = server.directory.path
            for index in 1...3 {
                _ = try await api.createUser("checkpoint\(index)@example.com")
            }
            let entries = try await api.services.store.auditEntries(after: 0, limit: 100)
            let head = try #require(entries.last)
            #expect(entries.count >= 3)

            let taken = try await Self.run(["audit", "checkpoint", "--data-dir", dataDir, "--output", checkpointFile.path])
            #expect(taken.status == 0, "\(taken.errors)")
            #expect(taken.output.contains("checkpoint of entry \(head.sequence)"))
            // Verifiable by anyone holding the JWKS, not only by the server.
            let jws = try String(contentsOf: checkpointFile, encoding: .utf8)
            let checkpoint = try AuditCheckpoint.verify(jws, keys: try await Self.publishedKeys(api))
            #expect(checkpoint.sequence == head.sequence)
            #expect(checkpoint.hash == head.hash)

            let before = try await Self.run(["audit", "verify", "--data-dir", dataDir, "--checkpoint", checkpointFile.path])
            #expect(before.status == 0, "\(before.errors)")
            #expect(before.output.contains("checkpoint matches: entry \(head.sequence)"))

            // The chain may grow after a checkpoint.
            _ = try await api.createUser("checkpoint4@example.com")
            #expect(try await Self.run(["audit", "verify", "--data-dir", dataDir, "--checkpoint", checkpointFile.path]).status == 0)

            // Someone with the file drops the append-only trigger and cuts the newest entries.
            let tamperer = try DatabaseQueue(path: api.services.configuration.databasePath)
            try await tamperer.write { db in
                try db.execute(sql: "DROP TRIGGER audit_entries_no_delete")
                try db.execute(sql: "DELETE FROM audit_entries WHERE sequence >= ?", arguments: [head.sequence - 1])
            }
            try tamperer.close()

            let plain = try await Self.run(["audit", "verify", "--data-dir", dataDir])
            #expect(plain.status == 0, "what is left still links up: \(plain.errors)")
            #expect(plain.output.contains("audit chain intact: \(head.sequence - 2) entries"))

            let cut = try await Self.run(["audit", "verify", "--data-dir", dataDir, "--checkpoint", checkpointFile.path])
            #expect(cut.status == 2)
            #expect(cut.errors.contains("chain shorter than checkpoint"), "\(cut.errors)")

            // A checkpoint claiming a shorter chain would pass the comparison; its signature does not.
            let parts = jws.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").map(String.init)
            let payload = #"{"hash":"\#(entries[0].hash)","sequence":1,"time":\#(Int(checkpoint.time.timeIntervalSince1970))}"#
            let forgedFile = checkpointFile.appendingPathExtension("forged")
            defer { try? FileManager.default.removeItem(at: forgedFile) }
            try Data([parts[0], Base64URL.encode(Array(payload.utf8)), parts[2]].joined(separator: ".").utf8).write(to: forgedFile)
            let forged = try await Self.run(["audit", "verify", "--data-dir", dataDir, "--checkpoint", forgedFile.path])
            #expect(forged.status == 2)
            #expect(forged.errors.contains("checkpoint signature invalid"), "\(forged.errors)")
        }
    }

    @Test(
        "serve writes a checkpoint at start and a last one at shutdown; the chain matches it",
        .enabled(if: (try? ServerPair.serverBinary()) != nil, "sca-server binary not built"),
        .timeLimit(.minutes(5)))
    func periodicCheckpoints() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-periodic-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("checkpoint.jws")
        let server = try ServeProcess(
            directory: directory,
            environment: [
                "SCA_ADMIN_KEY": ServerPair.adminKey, "SCA_AUDIT_CHECKPOINT_FILE": file.path, "SCA_SCRYPT_LOG_N": "4",
                "SCA_SCRYPT_R": "1",
            ])
        let instance = ServerInstance(port: try await server.port())
        // The first checkpoint is written when the server starts.
        let deadline = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: file.path), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(FileManager.default.fileExists(atPath: file.path), "\(server.log.suffix(2_000))")
        _ = try await instance.createUser("periodic@example.com")
        await server.stop()

        let verify = try await Self.run([
            "audit", "verify", "--data-dir", directory.appendingPathComponent("data").path, "--checkpoint", file.path,
        ])
        #expect(verify.status == 0, "\(verify.errors)")
        let intact = try #require(
            verify.output.split(separator: "\n").first { $0.hasPrefix("audit chain intact: ") }?
                .split(separator: " ").dropFirst(3).first.flatMap { Int($0) })
        #expect(intact >= 1)
        // The last checkpoint, written at shutdown, covers the whole chain.
        #expect(verify.output.contains("checkpoint matches: entry \(intact) "), "\(verify.output)")
    }

    @Test("the checkpoint file must be outside the data directory")
    func checkpointFileOutsideDataDirectory() throws {
        let loader = ConfigurationLoader()
        #expect(throws: ConfigurationError.self) {
            try loader.load(
                file: nil, environment: ["SCA_DATA_DIR": "/var/sca", "SCA_AUDIT_CHECKPOINT_FILE": "/var/sca/../sca/cp.jws"],
                flags: [:])
        }
        let configuration = try loader.load(
            file: nil,
            environment: [
                "SCA_DATA_DIR": "/var/sca", "SCA_AUDIT_CHECKPOINT_FILE": "/var/sca-checkpoints/cp.jws",
                "SCA_AUDIT_CHECKPOINT_INTERVAL": "15",
            ], flags: [:])
        #expect(configuration.auditCheckpointFile == "/var/sca-checkpoints/cp.jws")
        #expect(configuration.auditCheckpointInterval == 15)
        #expect(throws: ConfigurationError.self) {
            try loader.load(file: nil, environment: ["SCA_AUDIT_CHECKPOINT_INTERVAL": "0"], flags: [:])
        }
    }
}
