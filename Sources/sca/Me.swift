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
        let words = Terminal.words
        print(words.text("terminal.me.user", ["user": me.userId]))
        print(words.text("terminal.me.email", ["email": me.email]))
        if let phone = me.phone { print(words.text("terminal.me.phone", ["phone": phone])) }
        if let name = me.name { print(words.text("terminal.me.name", ["name": Terminal.shown(name)])) }
        // The bank's own attribute names, as it wrote them.
        for key in me.attributes.keys.sorted() { print("\(key): \(Terminal.shown(me.attributes[key] ?? ""))") }
        print(words.text("terminal.me.methods", ["methods": me.methods.map(\.rawValue).joined(separator: ", ")]))
        print(words.text("terminal.me.devices", ["count": String(me.devices)]))
        if !me.roles.isEmpty { print(words.text("terminal.me.roles", ["roles": me.roles.joined(separator: ", ")])) }
    }
}
