import ArgumentParser
import Foundation
import SCAClient
import SCACore

/// `sca me`: the signed-in user's own profile.
struct Me: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show your profile: e-mail, name, attributes, methods, devices.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let app = try await AppState.open(global)
        let me = try await app.client.me()
        print("user: \(me.userId)")
        print("e-mail: \(me.email)")
        if let phone = me.phone { print("phone: \(phone)") }
        if let name = me.name { print("name: \(Terminal.shown(name))") }
        for key in me.attributes.keys.sorted() { print("\(key): \(Terminal.shown(me.attributes[key] ?? ""))") }
        print("methods: \(me.methods.map(\.rawValue).joined(separator: ", "))")
        print("devices: \(me.devices)")
        if !me.roles.isEmpty { print("roles: \(me.roles.joined(separator: ", "))") }
    }
}
