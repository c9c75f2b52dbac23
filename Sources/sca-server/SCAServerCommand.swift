import ArgumentParser
import Foundation
import Logging
import SCAEngine

@main
struct SCAServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sca-server",
        abstract: "Strong Customer Authentication server (PSD2 SCA in three phases).",
        subcommands: [
            Serve.self, UserCommand.self, DeviceCommand.self, ClientCommand.self, AuditCommand.self, ConfigCommand.self,
            AdminKeyCommand.self, RiskCommand.self, BackupCommand.self, RestoreCommand.self, KeysCommand.self,
            // Decoupled operations.
            OperationCommand.self,
        ],
        defaultSubcommand: Serve.self)
}

/// Options every subcommand shares: where the configuration and the data live.
struct CommonOptions: ParsableArguments {
    @Option(help: "JSON configuration file (also SCA_CONFIG).")
    var config: String?

    @Option(help: .setting("dataDir"))
    var dataDir: String?

    @Option(help: .setting("databaseURL", valueName: "url"))
    var database: String?

    /// Defaults < file < SCA_* environment < these flags.
    func load(flags extra: [String: String] = [:]) throws -> ServerConfiguration {
        let environment = ProcessInfo.processInfo.environment
        var flags = extra
        if let dataDir { flags["dataDir"] = dataDir }
        if let database { flags["databaseURL"] = database }
        do {
            return try ConfigurationLoader().load(file: config ?? environment[ConfigurationSetting.configFileVariable], environment: environment, flags: flags)
        } catch let error as ConfigurationError {
            throw ValidationError("configuration: \(error.description)")
        }
    }
}

extension ArgumentHelp {
    /// The help of the flag that sets `key`: its row in the configuration table.
    static func setting(_ key: String, valueName: String? = nil) -> ArgumentHelp {
        ArgumentHelp(ConfigurationSetting.named(key)?.flagHelp ?? key, valueName: valueName)
    }
}

/// Log lines to standard error from `level` up (the configured `logLevel`, `info` by default);
/// every line emitted while serving a request carries its id as `request` metadata.
func bootstrapLogging(level: Logger.Level) {
    LoggingSystem.bootstrap(
        { label, metadataProvider in
            var handler = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
            handler.logLevel = level
            return handler
        }, metadataProvider: .requestInfo)
}
