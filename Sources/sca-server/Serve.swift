import ArgumentParser
import Foundation
import Hummingbird
import Logging
import SCAServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the HTTP server (127.0.0.1:8080, SQLite under ./.sca by default; PostgreSQL with --database).")

    @OptionGroup var common: CommonOptions
    // Flags for a few settings; every setting is also a file key and an SCA_ variable.
    @Option(help: .setting("host")) var host: String?
    @Option(help: .setting("port")) var port: Int?
    @Option(help: .setting("adminKey")) var adminKey: String?
    @Flag(help: .setting("demo")) var demo = false
    @Option(help: .setting("logLevel")) var logLevel: String?

    func run() async throws {
        var flags: [String: String] = [:]
        if let host { flags["host"] = host }
        if let port { flags["port"] = String(port) }
        if let adminKey { flags["adminKey"] = adminKey }
        if demo { flags["demo"] = "true" }
        if let logLevel { flags["logLevel"] = logLevel }
        let configuration = try common.load(flags: flags)
        bootstrapLogging(level: Logger.Level(rawValue: configuration.logLevel) ?? .info)
        let services = try await SCAServices.make(configuration: configuration)
        if configuration.demo {
            printDemo(try await DemoSeeder(users: services.users).seed(), configuration: configuration)
        }
        let host = configuration.host
        let app = services.application { port in
            printUnbuffered("sca-server listening on http://\(host):\(port)")
        }
        // Signed audit checkpoints to a file outside the data directory, when configured.
        let checkpoints = try PeriodicAuditCheckpoints(services: services)
        let checkpointing = checkpoints.map { checkpoints in Task { await checkpoints.run() } }
        do {
            try await app.runService()
        } catch {
            checkpointing?.cancel()
            await services.shutdown()
            throw error
        }
        // SIGTERM or SIGINT: the HTTP server has drained; a last checkpoint covers what it
        // wrote; then close the database pool too.
        checkpointing?.cancel()
        await checkpointing?.value
        if let checkpoints {
            do {
                try await checkpoints.writeNow()
            } catch {
                FileHandle.standardError.write(Data("audit checkpoint not written to \(checkpoints.path): \(error)\n".utf8))
            }
        }
        await services.shutdown()
    }

    private func printDemo(_ users: [DemoSeeder.Credentials], configuration: ServerConfiguration) {
        printUnbuffered("Demo users (codes are written to \(configuration.outboxPath)):")
        for user in users {
            var methods = ["password \(user.password)"]
            if let pin = user.pin { methods.append("PIN \(pin)") }
            if let phone = user.phone { methods.append("SMS to \(phone)") }
            if user.emailCodes { methods.append("e-mail codes") }
            let roles = user.roles.isEmpty ? "" : " [\(user.roles.joined(separator: ", "))]"
            printUnbuffered("  \(user.email)\(roles): \(methods.joined(separator: ", "))")
            if let uri = user.totpURI { printUnbuffered("    TOTP: \(uri)") }
        }
    }
}

/// Writes a line straight to standard output, so a parent process reading a pipe (a test, a
/// script waiting for the port) sees it at once.
func printUnbuffered(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
