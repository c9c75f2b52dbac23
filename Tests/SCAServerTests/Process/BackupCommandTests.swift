import Foundation
import Testing

/// `sca-server backup` and `restore` as an operator runs them: a copy of a data directory's
/// store, restored into another, its audit chain verified; a restore over a database only with
/// `--force`; PostgreSQL pointed to its own tools. And `user export` on the same data.
@Suite("backup and restore commands")
struct BackupCommandTests {
    @Test("backup, then restore into an empty data directory verifies the chain; over a database only with --force")
    func backupAndRestore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = ["SCA_DATA_DIR": directory.appendingPathComponent("data").path, "SCA_SCRYPT_LOG_N": "4", "SCA_SCRYPT_R": "1"]
        let created = try await AdminCommand.run(
            ["user", "add", "--email", "kept@example.com", "--password", "correct horse battery"], environment: source)
        #expect(created.status == 0, "\(created.errors)")
        // The user's data, as the operator answers an access request: JSON, no secret.
        let exported = try await AdminCommand.run(["user", "export", "kept@example.com"], environment: source)
        #expect(exported.status == 0, "\(exported.errors)")
        #expect(exported.output.contains(#""email":"kept@example.com""#) && !exported.output.contains("correct horse battery"))
        let file = directory.appendingPathComponent("sca-backup.sqlite").path

        let backup = try await AdminCommand.run(["backup", "--to", file], environment: source)
        #expect(backup.status == 0, "\(backup.errors)")
        #expect(backup.output.contains("backup written: \(file)"))
        #expect(backup.output.contains("server.key"), "the operator is told to keep the server key apart")
        let again = try await AdminCommand.run(["backup", "--to", file], environment: source)
        #expect(again.status != 0 && again.errors.contains("never overwrites"), "\(again.errors)")

        // Into a fresh data directory with the same server key: restored and verified.
        let target = directory.appendingPathComponent("restored")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: directory.appendingPathComponent("data/server.key"), to: target.appendingPathComponent("server.key"))
        var restoreEnvironment = source
        restoreEnvironment["SCA_DATA_DIR"] = target.path
        let restored = try await AdminCommand.run(["restore", file], environment: restoreEnvironment)
        #expect(restored.status == 0, "\(restored.errors)")
        #expect(restored.output.contains("audit chain intact"), "\(restored.output)")
        let listed = try await AdminCommand.run(["user", "list"], environment: restoreEnvironment)
        #expect(listed.output.contains("kept@example.com"), "\(listed.output)")

        // A data directory that holds a database is replaced only when the operator says so.
        let refused = try await AdminCommand.run(["restore", file], environment: restoreEnvironment)
        #expect(refused.status != 0 && refused.errors.contains("--force"), "\(refused.errors)")
        let forced = try await AdminCommand.run(["restore", file, "--force"], environment: restoreEnvironment)
        #expect(forced.status == 0, "\(forced.errors)")

        let postgres = try await AdminCommand.run(
            ["backup", "--to", directory.appendingPathComponent("pg.sqlite").path],
            environment: source.merging([
                "SCA_DATABASE_URL": "postgres://sca@127.0.0.1:1/sca", "SCA_SERVER_KEY": "q3vXJ0z1Yk8mB2nR4tW6yA9cE1gH3jK5lN7pQ9sU0wE",
            ]) { $1 })
        #expect(postgres.status != 0 && postgres.errors.contains("pg_dump"), "\(postgres.errors)")
    }
}
