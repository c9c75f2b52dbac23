import ArgumentParser
import Foundation
import SCACore
import SCAServer

/// `sca-server device …`: device binding by an operator, on the server's database.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device", abstract: "Activation codes and device states.",
        subcommands: [IssueCode.self, List.self, Block.self, Unblock.self, Remove.self])

    struct IssueCode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "issue-code", abstract: "Issue a single-use activation code (valid 5 minutes) for a user's new device.")
        @OptionGroup var common: CommonOptions
        @Option(help: "The user's e-mail address.") var email: String

        func run() async throws {
            try await withServices(common) { services in
                let code = try await services.devices.issueActivationCode(for: try await resolve(email, in: services))
                print(code.activationCode)
                print("expires \(ISO8601DateFormatter().string(from: code.expiresAt))")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a user's devices.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "User id or e-mail.") var user: String

        func run() async throws {
            try await withServices(common) { services in
                for device in try await services.devices.devices(of: try await resolve(user, in: services)) {
                    // Names stored before the display-text rule may hold controls: written out, not obeyed.
                    print(
                        "\(device.deviceId)  \(DisplayText.escaped(device.name))  \(DisplayText.escaped(device.platform))  "
                            + "\(device.status.rawValue)  biometry: \(device.hasBiometryKey)")
                }
            }
        }
    }

    struct Block: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Block a device.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "Device id.") var device: String

        func run() async throws { try await setStatus(common, device, .blocked) }
    }

    struct Unblock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unblock a device and clear its failure count.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "Device id.") var device: String

        func run() async throws { try await setStatus(common, device, .active) }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a device for good.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "Device id.") var device: String

        func run() async throws { try await setStatus(common, device, .removed) }
    }
}

private func setStatus(_ common: CommonOptions, _ deviceID: String, _ status: DeviceStatus) async throws {
    try await withServices(common) { services in
        let device = try await services.devices.setStatus(of: deviceID, to: status)
        print("\(device.deviceId)  \(device.status.rawValue)")
    }
}
