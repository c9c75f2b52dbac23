import ArgumentParser
import Foundation
import SCACore
import SCAServer

/// `sca-server audit …`: checking and exporting the hash-chained audit trail.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Verify or export the audit trail.", subcommands: [Verify.self, Export.self])

    /// Entries read per query: bounded memory however long the trail.
    static let pageSize = 1_000

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Walk the hash chain from the first entry; exit non-zero at the first broken link.")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            var broken: AuditChainBreak?
            var intact: Int64 = 0
            try await withServices(common) { services in
                var verifier = AuditChainVerifier()
                var after: Int64 = 0
                pages: while true {
                    let page = try await services.store.auditEntries(after: after, limit: AuditCommand.pageSize)
                    for entry in page {
                        if let found = verifier.check(entry) {
                            broken = found
                            break pages
                        }
                        after = entry.sequence
                    }
                    if page.count < AuditCommand.pageSize { break }
                }
                intact = verifier.count
            }
            if let broken {
                FileHandle.standardError.write(Data("audit chain broken: \(broken) (\(intact) entries intact before it)\n".utf8))
                throw ExitCode(2)
            }
            print("audit chain intact: \(intact) entries")
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
                var after: Int64 = 0
                while true {
                    let page = try await services.store.auditEntries(after: after, since: start, limit: AuditCommand.pageSize)
                    for entry in page {
                        FileHandle.standardOutput.write(Data(JCS.canonicalize(entry.exportJSON) + [UInt8(ascii: "\n")]))
                        after = entry.sequence
                    }
                    if page.count < AuditCommand.pageSize { break }
                }
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
