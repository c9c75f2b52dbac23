import ArgumentParser
import Foundation
import SCAClient
import SCALocalization

/// `sca password …`: the password, when it is forgotten.
struct PasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password", abstract: "Your password, when you have forgotten it.", subcommands: [Reset.self])

    /// `sca password reset`: a new password proven without the old one.
    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a new password without the old one.",
            discussion: """
                On a bound device its keys and your biometry prove the reset, and it is complete. \
                Otherwise a code sent to your e-mail or phone proves it; with the recovery sheet's code \
                and next PUK too the reset is complete, without them the account stays restricted: \
                you can sign in, but payments and changes wait until your bank lifts the hold. Every \
                session of yours ends, and you are alerted on every channel.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var factors: FactorOptions

        @Option(help: ArgumentHelp("Your account's e-mail address, when this device is not bound.", valueName: "email"))
        var email: String?

        @Option(help: ArgumentHelp("The recovery code on your sheet, to complete a reset proven with a code.", valueName: "code"))
        var recoveryCode: String?

        @Option(help: ArgumentHelp("The next unused PUK on your sheet (with --recovery-code).", valueName: "puk"))
        var puk: String?

        @Flag(help: "Read the new password from the first line of standard input.")
        var newPasswordStdin = false

        func validate() throws {
            guard (recoveryCode == nil) == (puk == nil) else {
                throw ValidationError(Terminal.words.text("terminal.passwordReset.sheetPair"))
            }
        }

        func run() async throws {
            let app = try await AppState.open(global)
            let words = Terminal.words
            let password = try newPassword(words)
            let spinner = Spinner()
            let collector = try factors.collector(spinner: spinner)
            let sheet = recoveryCode.flatMap { code in puk.map { (code: code, puk: $0) } }
            let reset = try await spinner.during(words.text("terminal.spinner.resettingPassword")) {
                try await app.client.resetPassword(
                    email: email, newPassword: password, recoverySheet: sheet, using: collector)
            }
            switch reset.outcome {
            case .complete:
                print(words.text("terminal.passwordReset.complete", ["ended": String(reset.sessionsEnded)]))
            case .restricted:
                print(
                    words.text(
                        "terminal.passwordReset.restricted",
                        ["ended": String(reset.sessionsEnded), "until": reset.restrictedUntil.map(words.dateTime) ?? "-"]))
            }
        }

        /// From standard input, or typed twice at the terminal.
        private func newPassword(_ words: Localizer) throws -> String {
            if newPasswordStdin {
                guard let line = readLine(strippingNewline: true) else { throw AppError.inputClosed(.password) }
                return line
            }
            guard let first = Terminal.askSecret(words.text("terminal.passwordReset.prompt")),
                let second = Terminal.askSecret(words.text("terminal.passwordReset.repeat"))
            else { throw AppError.inputClosed(.password) }
            guard first == second else { throw ValidationError(words.text("terminal.passwordReset.mismatch")) }
            return first
        }
    }
}
