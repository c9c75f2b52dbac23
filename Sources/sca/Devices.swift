import ArgumentParser
import Foundation
import SCAClient
import SCACore

/// `sca devices`: the signed-in user's devices, this one marked.
struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List your devices (needs a signed-in session); * marks this one.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let app = try await AppState.open(global)
        let words = Terminal.words
        let devices = try await Spinner().during(words.text("terminal.spinner.loadingDevices")) { try await app.client.devices() }
        guard !devices.isEmpty else {
            print(words.text("terminal.devices.none"))
            return
        }
        for device in devices {
            let isThis = device.deviceId == app.binding?.deviceId
            let status = words.text("terminal.deviceStatus.\(device.status.rawValue)")
            var line =
                "\(isThis ? "*" : " ") \(device.deviceId)  \(Terminal.shown(device.name))  \(Terminal.shown(device.platform))  \(status)"
            if device.hasBiometryKey { line += "  " + words.text("terminal.devices.biometry") }
            if let used = device.lastUsedAt { line += "  " + words.text("terminal.devices.lastUsed", ["time": words.dateTime(used)]) }
            if isThis { line += "  " + words.text("terminal.devices.thisDevice") }
            print(line)
        }
    }
}
