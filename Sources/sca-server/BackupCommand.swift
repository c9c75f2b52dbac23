import ArgumentParser
import Foundation
import SCAEngine
import SCAServer

/// `sca-server backup`: a consistent copy of the SQLite store while the server serves.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the SQLite store, consistent as of one moment, while the server serves (SQLite's online backup API).")
    @OptionGroup var common: CommonOptions
    @Option(help: ArgumentHelp("The new file to write; an existing file is never overwritten.", valueName: "file"))
    var to: String

    func run() async throws {
        let configuration = try common.load()
        do {
            try await ServerDatabase.backup(configuration: configuration, to: to)
        } catch {
            // A refusal says why in its own words (the store, the file, the data directory).
            throw ValidationError(String(describing: error))
        }
        print("backup written: \(to)")
        // The sealed secrets in the copy open only with the key that sealed them.
        print("the server key is not in it: keep \(configuration.serverKeyPath) apart, safely; a restore needs it")
    }
}

/// `sca-server restore`: a backup in place of the store, then the audit chain checked.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup in place of the SQLite store (stop the server first), then verify the audit chain.")
    @OptionGroup var common: CommonOptions
    @Argument(help: ArgumentHelp("A file written by `sca-server backup`.", valueName: "file"))
    var file: String
    @Flag(help: "Replace the database the data directory holds already.")
    var force = false

    func run() async throws {
        let configuration = try common.load()
        do {
            try ServerDatabase.restore(configuration: configuration, from: file, replacing: force)
        } catch {
            // A refusal says why in its own words (the store, the file, the data directory).
            throw ValidationError(String(describing: error))
        }
        print("restored \(file) to \(configuration.databasePath)")
        // Against the last checkpoint when one is kept: a backup older than it is told apart
        // from a chain cut or altered since.
        let checkpoint = configuration.auditCheckpointFile.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        try await AuditCommand.Verify.verify(common, checkpoint: checkpoint)
    }
}
