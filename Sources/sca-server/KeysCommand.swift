import ArgumentParser
import Foundation
import SCAEngine
import SCAServer

/// `sca-server keys …`: the token-signing keys, rotated and listed on the server's database.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Rotate and list the token-signing keys.",
        subcommands: [Rotate.self, List.self])

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store a new token-signing key: published at once, signing an hour later.",
            discussion: """
                Every running instance reads it within 30 seconds and switches to it at its activation time; \
                the key before stays published until the tokens it signed have expired (docs/operations.md).
                """)
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withServices(common) { services in
                let key = try await services.signingKeys.rotate()
                print("rotated: key \(key.keyID) signs from \(ISO8601DateFormatter().string(from: key.activatesAt))")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the keys, newest first: key id, created, activates, and next, signing, published or retired.")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withServices(common) { services in
                let format = ISO8601DateFormatter()
                for key in services.signingKeys.list() {
                    print(
                        "\(key.keyID)  created: \(format.string(from: key.createdAt))  activates: \(format.string(from: key.activatesAt))  \(key.status.rawValue)")
                }
            }
        }
    }
}
