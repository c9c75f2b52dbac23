import ArgumentParser
import Foundation
import SCACore
import SCAServer

/// `sca-server admin-key …`: scoped admin API keys, managed on the server's database.
struct AdminKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin-key", abstract: "Create, list and revoke scoped admin API keys.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a key and print it once: only its hash is stored.",
            discussion: "Scopes: \(AdminScope.allCases.map(\.rawValue).joined(separator: ", ")).")
        @OptionGroup var common: CommonOptions
        @Option(help: "A name for people and the audit trail (letters, digits, '.', '_', '-').") var name: String
        @Option(help: "Comma-separated scopes, e.g. users:read,users:unblock.") var scopes: String

        func run() async throws {
            try await withServices(common) { services in
                let created = try await services.adminKeys.create(name: name, scopes: scopes)
                // The one time the key exists outside the caller's hands: standard output only.
                print(created.key)
                FileHandle.standardError.write(Data(
                    "admin key \(created.record.name) (\(created.record.id)) created with \(created.record.scopes.map(\.rawValue).joined(separator: ",")); it is shown this once\n".utf8))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List keys: name, id, scopes, created, last used, revoked.")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withServices(common) { services in
                let format = ISO8601DateFormatter()
                for key in try await services.adminKeys.list() {
                    let lastUsed = key.lastUsedAt.map(format.string(from:)) ?? "never"
                    let revoked = key.revokedAt.map { "  revoked: \(format.string(from: $0))" } ?? ""
                    print(
                        "\(key.name)  \(key.id)  [\(key.scopes.map(\.rawValue).joined(separator: ","))]  created: \(format.string(from: key.createdAt))  last used: \(lastUsed)\(revoked)")
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke a key by name or id: it stops at once, on every instance.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The key's name or id (ak_…).") var key: String

        func run() async throws {
            try await withServices(common) { services in
                let revoked = try await services.adminKeys.revoke(key)
                print("revoked \(revoked.name) (\(revoked.id))")
            }
        }
    }
}
