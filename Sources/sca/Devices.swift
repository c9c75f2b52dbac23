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
        let devices = try await Spinner().during("Loading devices") { try await app.client.devices() }
        guard !devices.isEmpty else {
            print("no devices")
            return
        }
        let formatter = ISO8601DateFormatter()
        for device in devices {
            let isThis = device.deviceId == app.binding?.deviceId
            var line =
                "\(isThis ? "*" : " ") \(device.deviceId)  \(Terminal.shown(device.name))  \(Terminal.shown(device.platform))  \(device.status.rawValue)"
            if device.hasBiometryKey { line += "  biometry" }
            if let used = device.lastUsedAt { line += "  last used \(formatter.string(from: used))" }
            if isThis { line += "  (this device)" }
            print(line)
        }
    }
}
