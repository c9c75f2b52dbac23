import Foundation
import SCAEngine
import SCAStorageSQLite
import Testing

/// `sqlite.synchronous` (`SCA_SQLITE_SYNCHRONOUS`): `normal` by default, `full` on request, read
/// back from the store the server runs on; anything else refused at start-up. And the interval of
/// the background WAL checkpoints, which bounds the power-loss window of `normal`.
@Suite("Durability setting: sqlite.synchronous")
struct DurabilitySettingTests {
    @Test("normal by default, full from the file, the environment or a flag, anything else refused")
    func configuration() throws {
        let loader = ConfigurationLoader()
        #expect(try loader.load(file: nil, environment: [:], flags: [:]).sqliteSynchronous == .normal)
        #expect(ConfigurationLoader.environmentName(of: "sqlite.synchronous") == "SCA_SQLITE_SYNCHRONOUS")
        #expect(try loader.load(file: nil, environment: ["SCA_SQLITE_SYNCHRONOUS": "full"], flags: [:]).sqliteSynchronous == .full)
        #expect(try loader.load(file: nil, environment: [:], flags: ["sqlite.synchronous": "full"]).sqliteSynchronous == .full)
        for wrong in ["FULL ", "off", "extra", "", "2"] {
            #expect(throws: ConfigurationError.self, "\(wrong)") {
                try loader.load(file: nil, environment: ["SCA_SQLITE_SYNCHRONOUS": wrong], flags: [:])
            }
        }
    }

    @Test("sqlite.checkpointInterval: 0.05 s by default, fractions from the environment, 0.05 to 60 s or refused")
    func checkpointInterval() throws {
        let loader = ConfigurationLoader()
        let standard = try loader.load(file: nil, environment: [:], flags: [:])
        #expect(standard.sqliteCheckpointInterval == 0.05)
        try standard.validate()
        #expect(ConfigurationLoader.environmentName(of: "sqlite.checkpointInterval") == "SCA_SQLITE_CHECKPOINT_INTERVAL")
        let slower = try loader.load(file: nil, environment: ["SCA_SQLITE_CHECKPOINT_INTERVAL": "0.25"], flags: [:])
        #expect(slower.sqliteCheckpointInterval == 0.25)
        try slower.validate()
        #expect(throws: ConfigurationError.self) {
            try loader.load(file: nil, environment: ["SCA_SQLITE_CHECKPOINT_INTERVAL": "soon"], flags: [:])
        }
        for wrong in [0, 0.01, 61, -1, .infinity, .nan] {
            var configuration = ServerConfiguration()
            configuration.sqliteCheckpointInterval = wrong
            #expect(throws: ConfigurationError.self, "\(wrong)") { try configuration.validate() }
        }
    }

    @Test("the server's store runs with the configured mode", arguments: [SQLiteSynchronous.normal, .full])
    func storeMode(mode: SQLiteSynchronous) async throws {
        let server = try await TestServer { $0.sqliteSynchronous = mode }
        defer { try? FileManager.default.removeItem(at: server.directory) }
        let store = try #require(server.services.store as? SQLiteStore)
        #expect(try await store.synchronous() == mode)
    }
}
