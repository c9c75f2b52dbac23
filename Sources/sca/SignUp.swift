import ArgumentParser
import Foundation
import SCAClient
import SCACore

/// `sca signup`: sign up or in with an e-mail code, or with `--phone` an SMS code.
/// A known address or number signs in as `sca login` does; a new one (when the server allows
/// sign-ups of its kind) is created by the code, sets a password, and signs in with it and a
/// new code.
struct SignUp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup",
        abstract: "Sign up or in with a code sent to your e-mail address (or, with --phone, your phone).",
        discussion: """
            Scripts: sca signup --email E (or --phone +33…) --code C1 [--code C2 …] --password-stdin (the password is the \
            first line of standard input). Every code the run needs is taken from the --code values in \
            order (the sign-up's code, a retry after a wrong one, the code of the sign-in that follows a \
            sign-up); once they are used up, the next code is read from the next line of standard input.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The e-mail address (asked when absent).", valueName: "email"))
    var email: String?

    @Option(help: ArgumentHelp("A phone number in E.164 form (+33612345678) instead of an e-mail address: the codes come by SMS.", valueName: "phone"))
    var phone: String?

    @Option(
        help: ArgumentHelp(
            "A code sent to you, repeatable: used in the order codes are asked, then asked.", valueName: "code"))
    var code: [String] = []

    @Flag(help: "Read the password (to sign in with, or to set when signing up) from the first line of standard input.")
    var passwordStdin = false

    func validate() throws {
        if email != nil && phone != nil {
            throw ValidationError(Terminal.words.text("terminal.failure.emailOrPhone"))
        }
        if passwordStdin && email == nil && phone == nil {
            throw ValidationError(Terminal.words.text("terminal.failure.passwordStdinNeedsAddress"))
        }
    }

    func run() async throws {
        let app = try await AppState.open(global)
        let spinner = Spinner()
        let words = Terminal.words
        var password: String?
        if passwordStdin {
            guard let line = readLine(strippingNewline: true) else { throw AppError.inputClosed(.password) }
            password = line
        }
        var profile = app.loadProfile()
        let address: String
        if let phone {
            address = phone
        } else if let email {
            address = email
        } else {
            guard let line = Terminal.ask(words.text("terminal.login.emailPrompt")),
                !line.trimmingCharacters(in: .whitespaces).isEmpty
            else {
                throw AppError.inputClosed(.email)
            }
            address = line.trimmingCharacters(in: .whitespaces)
        }
        let collector = SignUpCollector(
            terminal: TerminalCollector(
                answers: TerminalCollector.Answers(
                    method: phone != nil ? .smsOTP : .emailOTP, code: nil, password: password, biometric: .ask, confirm: false),
                spinner: spinner),
            codes: code, newPassword: password, signUpCode: phone != nil ? .smsOTP : .emailOTP)
        let tokens = try await spinner.during(words.text("terminal.spinner.contactingServer")) {
            if phone != nil {
                try await app.client.signUpOrIn(phone: address, using: collector)
            } else {
                try await app.client.signUpOrIn(email: address, using: collector)
            }
        }
        // The remembered e-mail is what `sca login` offers: a phone sign-up has none to offer.
        profile.email = phone == nil ? address : nil
        profile.userId = TokenClaims(accessToken: tokens.accessToken)?.sub
        try? app.saveProfile(profile)
        if collector.signedUp {
            print(words.text("terminal.signup.created", ["account": address]))
        }
        print(words.text("terminal.login.signedIn", ["account": address, "methods": tokens.amr.map(\.rawValue).joined(separator: ", ")]))
    }
}
