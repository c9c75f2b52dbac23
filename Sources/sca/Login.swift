import ArgumentParser
import Foundation
import SCAClient
import SCACore

/// `sca login`: a manual login (e-mail, password, a second factor) or a cold start with this
/// device's keys alone.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sign in: e-mail, password and a second factor; or --cold-start with this device's keys.",
        discussion: "Scripts: sca login --email E --password-stdin --method totp --code 123456")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Sign in with this device's key and biometry: nothing to type but the (simulated) sensor.")
    var coldStart = false

    @Option(help: ArgumentHelp("The account's e-mail address (asked when absent).", valueName: "email"))
    var email: String?

    @OptionGroup var factors: FactorOptions

    func validate() throws {
        if coldStart && email != nil {
            throw ValidationError(Terminal.words.text("terminal.failure.coldStartWithEmail"))
        }
        if factors.passwordStdin && email == nil && !coldStart {
            throw ValidationError(Terminal.words.text("terminal.failure.passwordStdinNeedsEmail"))
        }
    }

    func run() async throws {
        let app = try await AppState.open(global)
        let spinner = Spinner()
        let collector = try factors.collector(spinner: spinner)
        let words = Terminal.words
        var profile = app.loadProfile()
        let tokens: TokenResponse
        let who: String
        if coldStart {
            tokens = try await spinner.during(words.text("terminal.spinner.signingInWithDevice")) {
                try await app.client.coldStart(using: collector)
            }
            let userID = TokenClaims(accessToken: tokens.accessToken)?.sub ?? app.binding?.userId
            who = profile.name(forUserID: userID) ?? words.text("terminal.login.thisDevicesUser")
        } else {
            let address = try email ?? askEmail(default: profile.email)
            tokens = try await spinner.during(words.text("terminal.spinner.contactingServer")) {
                try await app.client.logIn(email: address, using: collector)
            }
            who = address
            // Remembered so the next prompt offers it, and a cold start greets by e-mail; failing
            // to remember it does not undo the login.
            profile.email = address
            profile.userId = TokenClaims(accessToken: tokens.accessToken)?.sub
            try? app.saveProfile(profile)
        }
        print(words.text("terminal.login.signedIn", ["account": who, "methods": tokens.amr.map(\.rawValue).joined(separator: ", ")]))
    }

    private func askEmail(default remembered: String?) throws -> String {
        let words = Terminal.words
        let prompt =
            remembered.map { words.text("terminal.login.emailPromptRemembered", ["email": $0]) }
            ?? words.text("terminal.login.emailPrompt")
        while true {
            guard let line = Terminal.ask(prompt) else { throw AppError.inputClosed(.email) }
            let typed = line.trimmingCharacters(in: .whitespaces)
            if !typed.isEmpty { return typed }
            if let remembered { return remembered }
        }
    }
}
