import ArgumentParser
import SCAClient

/// `sca logout`: ends the session on the server and forgets the tokens; the device stays bound.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Sign out (this device stays bound).")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let app = try await AppState.open(global)
        let words = Terminal.words
        guard try await app.tokenStore.load() != nil else {
            print(words.text("terminal.logout.notSignedIn"))
            return
        }
        try await Spinner().during(words.text("terminal.spinner.signingOut")) { try await app.client.signOut() }
        print(words.text("terminal.logout.done"))
    }
}
