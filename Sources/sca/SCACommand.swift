import ArgumentParser
import Foundation

/// `sca`: the terminal app that plays the bank's mobile app. Every command is a thin UI over
/// SCAClient; the SDK runs the loop and keeps the keys and tokens.
@main
struct SCACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sca",
        abstract: "A terminal banking app: activate this device, sign in, pay, and a local authenticator.",
        discussion: """
            State lives under ~/.sca (or --home). The server is --server, else SCA_SERVER, else the one \
            this device was activated with, else http://127.0.0.1:8080.
            """,
        subcommands: [
            Activate.self, ActivationCodeCommand.self, Login.self, Pay.self, Devices.self, Status.self, TOTPCommand.self,
            Logout.self,
            // Decoupled operations.
            Approve.self,
            // Sign up or in.
            SignUp.self, Me.self,
            // The way back after a lost phone.
            RecoveryCommand.self, Recover.self, PasswordCommand.self,
            // The account page's lists.
            AccountCommand.self,
        ])

    /// Replaces ArgumentParser's entry point so that SDK and app errors end as one plain line,
    /// `error: <code>: <detail>`, which scripts can match; usage errors keep the parser's output.
    static func main() async {
        // Parsing errors (usage, --help) are the parser's to print, with the usage text.
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            guard let line = FailureLine(error) else { exit(withError: error) }
            Terminal.restoreEcho()
            FileHandle.standardError.write(Data("error: \(line.text)\n".utf8))
            Foundation.exit(line.exitCode)
        }
    }
}
