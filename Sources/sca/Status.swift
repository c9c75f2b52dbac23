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
        print("server: \(app.server.absoluteString)")
        print("home: \(app.home.path)")
        if let binding = app.binding {
            print("device: \(binding.deviceId) (\(Terminal.shown(binding.name))) for user \(binding.userId), biometry key: \(binding.hasBiometryKey ? "yes" : "no")")
            if !Self.sameServer(binding.server, app.server) {
                // The SDK uses a binding only with the server it was made with.
                print("device status: bound on \(binding.server.absoluteString), not on this server")
            } else {
                do {
                    let status = try await Spinner().during("Asking the server") { try await app.client.deviceStatus() }
                    print("device status: \(status.status.rawValue), \(status.remainingAttempts) of \(status.maxFailCount) attempts left")
                } catch {
                    // Status is informational: a server that cannot be reached is one more fact to show.
                    print("device status: unknown (\(FailureLine(error)?.text ?? String(describing: error)))")
                }
            }
        } else {
            print("device: not activated (sca activate CODE)")
        }
        let tokens = try await app.tokenStore.load()
        print(signedInLine(tokens, profile: app.loadProfile()))
        if let tokens, let access = SessionAccess(accessToken: tokens.accessToken) {
            // As the token carries them: sorted, each once.
            print("roles: \(access.roles.isEmpty ? "none" : access.roles.joined(separator: ", "))")
            print("permissions: \(access.permissions.isEmpty ? "none" : access.permissions.joined(separator: ", "))")
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
    private func signedInLine(_ tokens: StoredTokens?, profile: Profile) -> String {
        guard let tokens else { return "signed in: no" }
        let who = profile.name(forUserID: TokenClaims(accessToken: tokens.accessToken)?.sub).map { " as \($0)" } ?? ""
        let expiry = ISO8601DateFormatter().string(from: tokens.expiresAt)
        let left = Int(tokens.expiresAt.timeIntervalSinceNow.rounded(.down))
        if left > 0 {
            return "signed in: yes\(who) (\(tokens.operation.rawValue) token expires at \(expiry), in \(left) s)"
        }
        if tokens.refreshToken != nil {
            return "signed in: yes\(who) (access token expired at \(expiry); renewed on next use unless the session has ended)"
        }
        return "signed in: no (token expired at \(expiry))"
    }
}
