import ArgumentParser
import Foundation
import Logging
import SCAEngine
import SCAServer
import ServiceLifecycle

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
        guard PortCheck.isFree(host: configuration.host, port: configuration.port) else {
            FileHandle.standardError.write(Data(
                "sca-server: port \(configuration.port) on \(configuration.host) is in use; stop what listens there or choose another port with --port\n".utf8))
            throw ExitCode(1)
        }
        do {
            try SCAServices.checkTLSFiles(configuration)
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("sca-server: configuration: \(error.description)\n".utf8))
            throw ExitCode(1)
        }
        bootstrapLogging(level: Logger.Level(rawValue: configuration.logLevel) ?? .info)
        let logger = Logger(label: "sca-server", metadataProvider: .requestInfo)
        let tracing = try ServerTracing.make(configuration.tracing, logger: logger)
        let database = try await ServerDatabase.open(configuration: configuration, tracing: tracing.recorder, logger: logger)
        // The span exporter, then the database's pool: the group starts every service at once
        // and, at SIGTERM or SIGINT, shuts them down gracefully in reverse order, so the server
        // drains (and writes its last checkpoint) before the pool closes, and the last spans
        // are sent after everything that records them has stopped.
        let server = ServerService(configuration: configuration, database: database, tracing: tracing, logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: (tracing.service.map { [$0] } ?? []) + database.services + [server],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// Writes a line straight to standard output, so a parent process reading a pipe (a test, a
/// script waiting for the port) sees it at once.
func printUnbuffered(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
