import ArgumentParser
import Foundation
import SCAClient
import SCACore

/// `sca signup`: sign up or in with an e-mail code (issue 17). A known address signs in as
/// `sca login` does; a new one (when the server allows sign-ups) is created by the code, sets
/// a password, and signs in with it and a new e-mail code.
struct SignUp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup",
        abstract: "Sign up or in with a code sent to your e-mail address.",
        discussion: """
            Scripts: sca signup --email E --code C1 [--code C2 …] --password-stdin (the password is the \
            first line of standard input). Every code the run needs is taken from the --code values in \
            order (the sign-up's code, a retry after a wrong one, the code of the sign-in that follows a \
            sign-up); once they are used up, the next code is read from the next line of standard input.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The e-mail address (asked when absent).", valueName: "email"))
    var email: String?

    @Option(
        help: ArgumentHelp(
            "A code sent to you, repeatable: used in the order codes are asked, then asked.", valueName: "code"))
    var code: [String] = []

    @Flag(help: "Read the password (to sign in with, or to set when signing up) from the first line of standard input.")
    var passwordStdin = false

    func validate() throws {
        if passwordStdin && email == nil {
            throw ValidationError("--password-stdin needs --email: standard input carries the password")
        }
    }

    func run() async throws {
        let app = try await AppState.open(global)
        let spinner = Spinner()
        var password: String?
        if passwordStdin {
            guard let line = readLine(strippingNewline: true) else { throw AppError.inputClosed("the password") }
            password = line
        }
        var profile = app.loadProfile()
        let address: String
        if let email {
            address = email
        } else {
            guard let line = Terminal.ask("E-mail: "), !line.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw AppError.inputClosed("the e-mail address")
            }
            address = line.trimmingCharacters(in: .whitespaces)
        }
        let collector = SignUpCollector(
            terminal: TerminalCollector(
                answers: TerminalCollector.Answers(
                    method: .emailOTP, code: nil, password: password, biometric: .ask, confirm: false),
                spinner: spinner),
            codes: code, newPassword: password)
        let tokens = try await spinner.during("Contacting the server") {
            try await app.client.signUpOrIn(email: address, using: collector)
        }
        profile.email = address
        profile.userId = TokenClaims(accessToken: tokens.accessToken)?.sub
        try? app.saveProfile(profile)
        if collector.signedUp {
            print("account created for \(address)")
        }
        print("signed in as \(address) (amr: \(tokens.amr.map(\.rawValue).joined(separator: ", ")))")
    }
}
