import ArgumentParser
import Foundation
import SCAClient
import SCACore

/// `sca status`: where this app points, what it is bound to, and whether it is signed in.
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the server, this device's binding and status, and the sign-in state.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let app = try await AppState.open(global)
        let words = Terminal.words
        print(words.text("terminal.status.server", ["server": app.server.absoluteString]))
        print(words.text("terminal.status.home", ["path": app.home.path]))
        if let binding = app.binding {
            let device = ["device": binding.deviceId, "name": Terminal.shown(binding.name), "user": binding.userId]
            print(words.text(binding.hasBiometryKey ? "terminal.status.deviceWithBiometry" : "terminal.status.device", device))
            if !Self.sameServer(binding.server, app.server) {
                // The SDK uses a binding only with the server it was made with.
                print(words.text("terminal.status.otherServer", ["server": binding.server.absoluteString]))
            } else {
                do {
                    let status = try await Spinner().during(words.text("terminal.spinner.askingServer")) {
                        try await app.client.deviceStatus()
                    }
                    print(
                        words.text(
                            "terminal.status.attemptsLeft", count: status.maxFailCount,
                            [
                                "status": words.text("terminal.deviceStatus.\(status.status.rawValue)"),
                                "remaining": String(status.remainingAttempts),
                            ]))
                } catch {
                    // Status is informational: a server that cannot be reached is one more fact to show.
                    let reason = FailureLine(error)?.text ?? String(describing: error)
                    print(words.text("terminal.status.unknown", ["reason": reason]))
                }
            }
        } else {
            print(words.text("terminal.status.notActivated"))
        }
        let tokens = try await app.tokenStore.load()
        print(signedInLine(tokens, profile: app.loadProfile()))
        if let tokens, let access = SessionAccess(accessToken: tokens.accessToken) {
            // As the token carries them: sorted, each once.
            print(
                access.roles.isEmpty
                    ? words.text("terminal.status.noRoles")
                    : words.text("terminal.status.roles", ["roles": access.roles.joined(separator: ", ")]))
            print(
                access.permissions.isEmpty
                    ? words.text("terminal.status.noPermissions")
                    : words.text("terminal.status.permissions", ["permissions": access.permissions.joined(separator: ", ")]))
        }
    }

    private static func sameServer(_ one: URL, _ other: URL) -> Bool {
        func normalized(_ url: URL) -> String {
            var text = url.absoluteString.lowercased()
            while text.hasSuffix("/") { text.removeLast() }
            return text
        }
        return normalized(one) == normalized(other)
    }

    /// Read from the token store alone: asking the server would refresh, and so extend, the session.
    /// With the account's name when the app knows it, as a sentence of its own (`…As`).
    private func signedInLine(_ tokens: StoredTokens?, profile: Profile) -> String {
        let words = Terminal.words
        guard let tokens else { return words.text("terminal.status.signedOut") }
        let who = profile.name(forUserID: TokenClaims(accessToken: tokens.accessToken)?.sub)
        let expiry = words.dateTime(tokens.expiresAt)
        let left = Int(tokens.expiresAt.timeIntervalSinceNow.rounded(.down))
        var values = ["time": expiry, "account": who ?? ""]
        if left > 0 {
            values["kind"] = words.text("terminal.operation.kind.\(tokens.operation.rawValue)")
            values["seconds"] = String(left)
            return words.text(who == nil ? "terminal.status.signedIn" : "terminal.status.signedInAs", values)
        }
        if tokens.refreshToken != nil {
            return words.text(who == nil ? "terminal.status.renewable" : "terminal.status.renewableAs", values)
        }
        return words.text("terminal.status.expired", values)
    }
}
