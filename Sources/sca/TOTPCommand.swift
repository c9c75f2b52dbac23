import ArgumentParser
import Foundation
import SCAClient
import SCACore

/// `sca totp`: a local authenticator app, for users enrolled with TOTP.
struct TOTPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "totp", abstract: "A local authenticator: store a TOTP seed, show its current code.",
        subcommands: [Add.self, Code.self])

    /// `sca totp add SEED_OR_URI`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Store a Base32 seed or an otpauth://totp/ URI (file mode 0600).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "Base32 seed (spaces allowed) or otpauth://totp/… URI.")
        var seed: String

        @Option(help: ArgumentHelp("Name of this authenticator.", valueName: "name"))
        var name: String = AuthenticatorStore.defaultName

        func run() async throws {
            guard let totp = TOTP.parse(seed) else {
                throw AppError("totp.invalid", Terminal.words.text("terminal.totp.invalid"))
            }
            let store = AuthenticatorStore(home: try AppState.homeDirectory(global))
            try store.add(seed, name: name)
            print(
                Terminal.words.text(
                    "terminal.totp.added", ["name": name, "digits": String(totp.digits), "period": String(totp.period)]))
        }
    }

    /// `sca totp code`.
    struct Code: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the current code and the seconds it has left.")

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("Which authenticator (default: the only one, or 'default').", valueName: "name"))
        var name: String?

        @Flag(help: "Keep showing the code with a countdown (Ctrl-C to stop).")
        var watch = false

        func run() async throws {
            let store = AuthenticatorStore(home: try AppState.homeDirectory(global))
            let totp = try store.generator(named: name).totp
            guard watch else {
                print(Self.line(totp, at: Date()))
                return
            }
            if Terminal.outputIsTerminal {
                // Redraw one line each second: the code and how long it still holds.
                while !Task.isCancelled {
                    FileHandle.standardOutput.write(Data("\r\u{1B}[K\(Self.line(totp, at: Date()))".utf8))
                    try await Task.sleep(for: .seconds(1))
                }
            } else {
                // Piped: one line per new code, no control characters.
                var lastStep: Int64?
                while !Task.isCancelled {
                    let now = Date()
                    if totp.step(at: now) != lastStep {
                        lastStep = totp.step(at: now)
                        // Unbuffered, so a reader of the pipe sees each code when it appears.
                        FileHandle.standardOutput.write(Data((Self.line(totp, at: now) + "\n").utf8))
                    }
                    try await Task.sleep(for: .milliseconds(250))
                }
            }
        }

        /// `123456 (17 s left)`.
        static func line(_ totp: TOTP, at date: Date) -> String {
            let elapsed = Int(date.timeIntervalSince1970.rounded(.down)) % totp.period
            return Terminal.words.text("terminal.totp.code", ["code": totp.code(at: date), "seconds": String(totp.period - elapsed)])
        }
    }
}
