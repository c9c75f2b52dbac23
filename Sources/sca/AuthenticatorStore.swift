import Foundation
import SCAClient
import SCACore

/// The local authenticator's seeds: `totp.json` under the home directory, owner-only (0600),
/// mapping a name to the seed or otpauth URI as it was added.
struct AuthenticatorStore {
    static let defaultName = "default"

    let file: URL

    init(home: URL) {
        file = home.appendingPathComponent("totp.json")
    }

    func entries() throws -> [String: String] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [:] }
        do {
            return try JSONDecoder().decode([String: String].self, from: Data(contentsOf: file))
        } catch {
            throw AppError(
                "totp.unreadable",
                Terminal.words.text("terminal.totp.unreadable", ["path": file.path, "reason": error.localizedDescription]))
        }
    }

    func add(_ seed: String, name: String) throws {
        var all = try entries()
        all[name] = seed
        try ProtectedFile.write(try WireJSON.encoder().encode(all), to: file)
    }

    /// The named generator; without a name, the only one or the default.
    func generator(named name: String?) throws -> (name: String, totp: TOTP) {
        let all = try entries()
        let chosen: String
        if let name {
            chosen = name
        } else if all.count == 1, let only = all.keys.first {
            chosen = only
        } else {
            chosen = Self.defaultName
        }
        let words = Terminal.words
        guard let seed = all[chosen] else {
            let known = all.keys.sorted().joined(separator: ", ")
            throw AppError(
                "totp.not_found",
                all.isEmpty
                    ? words.text("terminal.totp.noneYet") : words.text("terminal.totp.notFound", ["name": chosen, "known": known]))
        }
        guard let totp = TOTP.parse(seed) else {
            throw AppError("totp.invalid", words.text("terminal.totp.storedInvalid", ["name": chosen]))
        }
        return (chosen, totp)
    }
}
