import ArgumentParser
import Foundation
import SCAClient

/// `sca activation-code`: approves binding another device and prints the code to type there.
struct ActivationCodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activation-code",
        abstract: "Approve binding another device: a device_activation SCA, then a code for the new device.",
        discussion: """
            Binding a device needs its own SCA: a sign-in is not enough. With a bound device its key \
            and biometry approve; otherwise the signed-in user proves again (--method, --code, \
            --password-stdin for scripts). The code is single use and valid 5 minutes: type it with \
            'sca activate CODE' on the new device.
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var factors: FactorOptions

    func run() async throws {
        let app = try await AppState.open(global)
        let spinner = Spinner()
        let collector = try factors.collector(spinner: spinner)
        let words = Terminal.words
        let issued = try await spinner.during(words.text("terminal.spinner.approvingDevice")) {
            try await app.client.requestActivationCode(using: collector)
        }
        print(
            words.text(
                "terminal.activationCode.issued", ["code": issued.activationCode, "until": words.dateTime(issued.expiresAt)]))
    }
}
