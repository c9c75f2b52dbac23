import ArgumentParser
import Foundation
import SCACore
import SCAEngine
import SCAServer

/// `sca-server audit …`: checking and exporting the hash-chained audit trail.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Verify, checkpoint or export the audit trail.",
        subcommands: [Verify.self, Checkpoint.self, Export.self, Archive.self])

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Walk the hash chain from the first entry; exit 2 at the first broken link, or when the chain contradicts a checkpoint.")
        @OptionGroup var common: CommonOptions
        @Option(help: ArgumentHelp(
            "A checkpoint written by `audit checkpoint`: the chain must still reach its entry, with the same hash.",
            valueName: "file"))
        var checkpoint: String?

        func run() async throws {
            try await Self.verify(common, checkpoint: checkpoint)
        }

        /// Walks the chain (and checks it against the checkpoint file, when given); prints the
        /// result, or exits 2.
        static func verify(_ common: CommonOptions, checkpoint: String?) async throws {
            let checkpointText: String?
            if let checkpoint {
                guard let data = FileManager.default.contents(atPath: checkpoint) else {
                    throw ValidationError("cannot read checkpoint file \(checkpoint)")
                }
                checkpointText = String(decoding: data, as: UTF8.self)
            } else {
                checkpointText = nil
            }
            var checked: AuditChainStatus?
            try await withServices(common) { services in
                checked = try await AuditCheckpoints(services: services).check(against: checkpointText)
            }
            guard let status = checked else { return }
            if let problem = status.checkpoint?.problem {
                FileHandle.standardError.write(Data("audit checkpoint check failed: \(problem)\n".utf8))
                throw ExitCode(2)
            }
            if let broken = status.broken {
                FileHandle.standardError.write(
                    Data("audit chain broken: \(broken) (\(status.intactEntries) entries intact before it)\n".utf8))
                throw ExitCode(2)
            }
            print("audit chain intact: \(status.intactEntries) entries")
            if let sequence = status.checkpoint?.sequence, let time = status.checkpoint?.time {
                print("checkpoint matches: entry \(sequence) taken \(Self.format(time))")
            }
        }

        static func format(_ date: Date) -> String {
            ISO8601DateFormatter().string(from: date)
        }
    }

    struct Checkpoint: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a signed checkpoint of the chain's newest entry (sequence, hash, time; ES256 JWS with the token-signing key).",
            discussion: """
                Keep checkpoints outside the data directory (another machine, write-once storage): \
                `audit verify --checkpoint FILE` then shows whether newest entries were cut since.
                """)
        @OptionGroup var common: CommonOptions
        @Option(help: ArgumentHelp("Write the checkpoint here (replaced atomically) instead of standard output.", valueName: "file"))
        var output: String?

        func run() async throws {
            try await withServices(common) { services in
                let (checkpoint, jws) = try await AuditCheckpoints(services: services).take()
                let line = Data((jws + "\n").utf8)
                if let output {
                    try line.write(to: URL(fileURLWithPath: output), options: .atomic)
                    print("checkpoint of entry \(checkpoint.sequence) (hash \(checkpoint.hash)) written to \(output)")
                } else {
                    FileHandle.standardOutput.write(line)
                }
            }
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Archive the entries older than `audit.retention` to a file and cut them from the database now.",
            discussion: """
                `serve` does this at every retention pass; this runs one pass by hand. The archive is \
                written (JSON lines, as `audit export`) to `audit.archiveDirectory` with the signed \
                checkpoint of its last entry beside it, before a single entry leaves the database.
                """)
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withServices(common) { services in
                guard services.configuration.retention.audit != nil else {
                    throw ValidationError("audit.retention is off: nothing is ever archived")
                }
                if let cut = try await services.engine.retention.archiveAudit() {
                    print("archived entries through \(cut.throughSequence) to \(cut.archive)")
                } else {
                    print("nothing to archive")
                }
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write audit entries as JSON lines (RFC 8785), each with its hash, to standard output.")
        @OptionGroup var common: CommonOptions
        @Option(help: ArgumentHelp("Only entries at or after this time (RFC 3339).", valueName: "time"))
        var since: String?

        func validate() throws {
            if let since, Self.parse(since) == nil { throw ValidationError("--since must be an RFC 3339 time") }
        }

        func run() async throws {
            let start = since.flatMap(Self.parse)
            try await withServices(common) { services in
                try await AuditExport(store: services.store, since: start).write { FileHandle.standardOutput.write(Data($0)) }
            }
        }

        static func parse(_ text: String) -> Date? {
            let formatter = ISO8601DateFormatter()
            if let date = formatter.date(from: text) { return date }
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.date(from: text)
        }
    }
}
