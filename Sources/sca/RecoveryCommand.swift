import ArgumentParser
import Foundation
import SCAClient
import SCACore

/// `sca recovery …`: the recovery sheet that binds a new device after a lost phone.
struct RecoveryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recovery", abstract: "The recovery sheet: the way back in after a lost phone.",
        subcommands: [Show.self, Status.self])

    /// `sca recovery show`: a `settings_change` SCA, then a new sheet printed once.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue a new recovery sheet (a settings_change SCA) and print it once.",
            discussion: """
                The sheet is a recovery code and ten PUKs, each used once and in order. Write it down \
                or print it and keep it away from this device: with it and your password or PIN, \
                'sca recover' binds a new device when this one is lost. A new sheet replaces the old.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var factors: FactorOptions

        func run() async throws {
            let app = try await AppState.open(global)
            let spinner = Spinner()
            let collector = try factors.collector(spinner: spinner)
            let words = Terminal.words
            let sheet = try await spinner.during(words.text("terminal.spinner.issuingRecoverySheet")) {
                try await app.client.issueRecoverySheet(using: collector)
            }
            Self.print(sheet)
        }

        /// The sheet on standard output, the advice on how to keep it after it.
        static func print(_ sheet: RecoverySheetResponse) {
            let words = Terminal.words
            Swift.print(words.text("terminal.recovery.code", ["code": sheet.recoveryCode]))
            for (index, puk) in sheet.puks.enumerated() {
                Swift.print(words.text("terminal.recovery.puk", ["number": String(index + 1), "puk": puk]))
            }
            Terminal.say(words.text("terminal.recovery.keep"))
        }
    }

    /// `sca recovery status`: what is left of the sheet, never the sheet itself.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show how many PUKs are left on the recovery sheet.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let app = try await AppState.open(global)
            let words = Terminal.words
            let status = try await app.client.recoverySheetStatus()
            print(
                words.text(
                    "terminal.recovery.status",
                    ["issued": words.dateTime(status.issuedAt), "left": String(status.puksLeft),
                     "next": status.nextPUK.map(String.init) ?? "-"]))
            if status.locked { print(words.text("terminal.recovery.locked")) }
        }
    }
}

/// `sca recover CODE --puk PUK`: binds this device with the recovery sheet and the password
/// (or PIN) after a lost phone.
struct Recover: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bind this device with your recovery sheet and your password or PIN, after a lost phone.",
        discussion: """
            Every other device of yours is removed and every session ended; you are alerted on every \
            channel. The PUK is the next unused one on the sheet; each works once.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The recovery code on the sheet (XXXXX-XXXXX-XXXXX-XXXXX).")
    var code: String

    @Option(help: ArgumentHelp("The next unused PUK on the sheet.", valueName: "puk"))
    var puk: String

    @Flag(help: "Prove your PIN instead of your password.")
    var pin = false

    @Flag(help: "Read the password (or PIN) from the first line of standard input.")
    var secretStdin = false

    @Option(help: ArgumentHelp("A name for this device, shown in 'sca devices'.", valueName: "name"))
    var name: String?

    func run() async throws {
        let app = try await AppState.open(global)
        let words = Terminal.words
        let awaited: AppError.Awaited = pin ? .pin : .password
        let secret: String
        if secretStdin {
            guard let line = readLine(strippingNewline: true) else { throw AppError.inputClosed(awaited) }
            secret = line
        } else {
            guard let line = Terminal.askSecret(words.text(pin ? "terminal.factor.pinPrompt" : "terminal.factor.passwordPrompt"))
            else { throw AppError.inputClosed(awaited) }
            secret = line
        }
        let deviceName = name ?? "sca on \(ProcessInfo.processInfo.hostName)"
        let spinner = Spinner()
        let (binding, recovery) = try await spinner.during(words.text("terminal.spinner.recovering")) {
            try await app.client.recover(
                code: code, puk: puk, knowledge: pin ? .pin(secret) : .password(secret), name: deviceName)
        }
        print(
            words.text(
                "terminal.recover.done",
                [
                    "device": binding.deviceId, "name": Terminal.shown(binding.name), "user": binding.userId,
                    "server": binding.server.absoluteString, "removed": String(recovery.devicesRemoved),
                    "ended": String(recovery.sessionsEnded), "left": String(recovery.puksLeft),
                ]))
    }
}
