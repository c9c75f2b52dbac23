import ArgumentParser
import Foundation
import SCAClient
import SCACore

/// `sca account …`: what the account page lists, and the changes that take power away.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Your account: devices, passkeys, sessions, partners, consents, beneficiaries, recovery and activity.",
        subcommands: [Show.self, EndSession.self, EndOthers.self, RevokePartner.self, RevokeConsent.self],
        defaultSubcommand: Show.self)

    /// `sca account show` (or `sca account`): every list of the account page.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "List what acts for you, whom you trust, and what happened lately.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let app = try await AppState.open(global)
            let words = Terminal.words
            let overview = try await Spinner().during(words.text("account.terminal.loading")) {
                try await app.client.accountOverview()
            }
            for line in AccountLines(words: words, thisDevice: app.binding?.deviceId).lines(of: overview) { print(line) }
        }
    }

    /// `sca account end-session ID`.
    struct EndSession: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "end-session", abstract: "End one of your sessions (another device's app, another browser).")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The session's id, as 'sca account' lists it.") var session: String

        func run() async throws {
            let app = try await AppState.open(global)
            try await app.client.endSession(session)
            print(Terminal.words.text("account.terminal.sessionEnded"))
        }
    }

    /// `sca account end-others`.
    struct EndOthers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "end-others", abstract: "End every session of yours but this one.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let app = try await AppState.open(global)
            let ended = try await app.client.endOtherSessions().ended
            print(Terminal.words.text("account.terminal.sessionsEnded", count: ended))
        }
    }

    /// `sca account revoke-partner CLIENT`.
    struct RevokePartner: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-partner", abstract: "Take a partner's access back: its sessions end, its open consents are refused.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The partner's client id, as 'sca account' lists it.") var client: String

        func run() async throws {
            let app = try await AppState.open(global)
            let revoked = try await app.client.revokePartnerAccess(client)
            print(
                Terminal.words.text(
                    "account.terminal.partnerRevoked",
                    ["client": Terminal.shown(revoked.clientId), "sessions": String(revoked.sessionsEnded),
                     "consents": String(revoked.consentsRefused)]))
        }
    }

    /// `sca account revoke-consent ID`.
    struct RevokeConsent: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-consent", abstract: "Revoke a consent given to a partner.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The consent's id, as 'sca account' lists it.") var consent: String

        func run() async throws {
            let app = try await AppState.open(global)
            let revoked = try await app.client.revokeConsent(consent)
            print(Terminal.words.text("account.terminal.consentRevoked", ["status": revoked.status.rawValue]))
        }
    }
}
