import ArgumentParser
import Foundation
import SCAClient

/// `sca activate CODE`: binds this "phone" to the user the code was issued for.
struct Activate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bind this device with an activation code (XXXXX-XXXXX-XXXXX-XXXXX) and remember the server.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The activation code from the bank (valid 5 minutes, single use).")
    var code: String

    @Option(help: ArgumentHelp("A name for this device, shown in 'sca devices'.", valueName: "name"))
    var name: String?

    @Flag(help: """
        Then issue a recovery sheet, confirmed by this device's own keys (a settings_change SCA),         and print it once: the way back in if this device is lost.
        """)
    var recoverySheet = false

    @OptionGroup var factors: FactorOptions

    func run() async throws {
        let app = try await AppState.open(global)
        let words = Terminal.words
        if let previous = app.binding {
            Terminal.say(words.text("terminal.activate.replacing", ["device": previous.deviceId]))
        }
        let deviceName = name ?? "sca on \(ProcessInfo.processInfo.hostName)"
        // Spaces and lower case are how people copy a code from a screen; the code itself is not changed.
        let typed = code.uppercased().replacingOccurrences(of: " ", with: "")
        let spinner = Spinner()
        let binding = try await spinner.during(words.text("terminal.spinner.activating")) {
            try await app.client.activateDevice(code: typed, name: deviceName)
        }
        print(
            words.text(
                "terminal.activate.done",
                [
                    "device": binding.deviceId, "name": Terminal.shown(binding.name), "user": binding.userId,
                    "server": binding.server.absoluteString,
                ]))
        if recoverySheet {
            let collector = try factors.collector(spinner: spinner)
            let sheet = try await spinner.during(words.text("terminal.spinner.issuingRecoverySheet")) {
                try await app.client.issueRecoverySheet(using: collector)
            }
            RecoveryCommand.Show.print(sheet)
        }
    }
}
