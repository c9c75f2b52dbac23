import Foundation
import SCAClient
import SCACore

/// This "phone": its home directory, the SDK's key and token stores under it, and a client for
/// the chosen server.
struct AppState {
    static let fallbackServer = "http://127.0.0.1:8080"

    let home: URL
    let keyStore: FileDeviceKeyStore
    let tokenStore: FileTokenStore
    /// The device binding, read once at start (nil before `sca activate`).
    let binding: DeviceBinding?
    let server: URL
    let client: SCAClient

    /// Opens the state under `--home` (default `$HOME/.sca`, never the server's `./.sca`) and
    /// picks the server: `--server`, else `SCA_SERVER`, else the one remembered with the
    /// activation, else the local default.
    static func open(_ options: GlobalOptions) async throws -> AppState {
        let home = try homeDirectory(options)
        let keyStore = FileDeviceKeyStore(directory: home.appendingPathComponent("device", isDirectory: true))
        let tokenStore = FileTokenStore(file: home.appendingPathComponent("tokens.json"))
        let binding = try await keyStore.binding()
        let environment = ProcessInfo.processInfo.environment["SCA_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
        let server: URL
        if let text = options.server ?? environment {
            server = try serverURL(text)
        } else if let remembered = binding?.server {
            server = remembered
        } else {
            server = try serverURL(fallbackServer)
        }
        let client = SCAClient(server: server, keyStore: keyStore, tokenStore: tokenStore)
        return AppState(home: home, keyStore: keyStore, tokenStore: tokenStore, binding: binding, server: server, client: client)
    }

    /// The state directory, created owner-only: it holds private keys and tokens.
    static func homeDirectory(_ options: GlobalOptions) throws -> URL {
        let home: URL
        if let path = options.home {
            home = URL(fileURLWithPath: (path as NSString).expandingTildeInPath, isDirectory: true)
        } else {
            let user = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            home = URL(fileURLWithPath: user, isDirectory: true).appendingPathComponent(".sca", isDirectory: true)
        }
        if !FileManager.default.fileExists(atPath: home.path) {
            try FileManager.default.createDirectory(
                at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        return home
    }

    static func serverURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil
        else {
            throw AppError("app.bad_server", Terminal.words.text("terminal.failure.badServer", ["text": text, "example": fallbackServer]))
        }
        return url
    }

    var profileFile: URL { home.appendingPathComponent("profile.json") }

    func loadProfile() -> Profile {
        Profile.load(from: profileFile)
    }

    func saveProfile(_ profile: Profile) throws {
        try profile.save(to: profileFile)
    }
}
