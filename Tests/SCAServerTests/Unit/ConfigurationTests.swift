import Foundation
import SCACore
import SCAEngine
import Testing

@Suite("Configuration: defaults < file < SCA_* environment < flags")
struct ConfigurationTests {
    @Test("the embedded default needs nothing: 127.0.0.1:8080, SQLite under ./.sca, deferred, 2 categories")
    func defaults() throws {
        let configuration = try ConfigurationLoader().load(file: nil, environment: [:], flags: [:])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.databasePath == ".sca/sca.sqlite")
        #expect(configuration.policy(for: .payment) == OperationPolicy(requiredCategories: 2, verdict: .deferred))
        #expect(configuration.adminKey == nil)
    }

    @Test("each source overrides the one before it")
    func precedence() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sca-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"port": 9000, "host": "0.0.0.0", "requiredCategories": {"payment": 3}, "verdict": {"login": "immediate"}, "exchangeRates": {"USD": "0.9"}}"#.utf8)
            .write(to: file)
        let configuration = try ConfigurationLoader().load(
            file: file.path, environment: ["SCA_PORT": "9100", "SCA_DATA_DIR": "/tmp/sca-env", "HOME": "/root"],
            flags: ["port": "0"])
        #expect(configuration.port == 0)
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.dataDirectory == "/tmp/sca-env")
        #expect(configuration.policy(for: .payment).requiredCategories == 3)
        #expect(configuration.policy(for: .login).verdict == .immediate)
        #expect(configuration.exchangeRates == ["USD": "0.9"])
        #expect(ConfigurationLoader.environmentName(of: "requiredCategories.payment") == "SCA_REQUIRED_CATEGORIES_PAYMENT")
    }

    @Test("unknown keys, bad values and unsafe settings are refused at start-up")
    func refusals() throws {
        let loader = ConfigurationLoader()
        for flags in [
            ["prot": "80"], ["port": "eighty"], ["verdict.login": "later"], ["requiredCategories.login": "4"],
            ["sessionIdleTimeout": "600"], ["scryptLogN": "40"], ["messageSender": "pigeon"],
            ["messageSender": "webhook"], ["adminKey": "short"], ["exchangeRates.XYZ": "1"], ["maxDeviceFailures": "9"],
            // An amount or a rate is plain digits with at most one point: no trailing text (which a
            // decimal parser would stop at and accept), sign, exponent, comma or space.
            ["highValuePaymentThreshold": "12abc"], ["highValuePaymentThreshold": "1e3"],
            ["highValuePaymentThreshold": "-5"], ["highValuePaymentThreshold": "0"], ["highValuePaymentThreshold": " 1000"],
            ["highValuePaymentThreshold": "1000."], ["highValuePaymentThreshold": ".5"], ["exchangeRates.USD": "0,9"],
            ["exchangeRates.USD": "0.9 EUR"], ["exchangeRates.USD": "+0.9"],
        ] {
            #expect(throws: ConfigurationError.self, "\(flags)") { try loader.load(file: nil, environment: [:], flags: flags) }
        }
        let plain = try loader.load(file: nil, environment: [:], flags: ["highValuePaymentThreshold": "250", "exchangeRates.USD": "0.92"])
        #expect(plain.highValuePaymentThreshold == "250" && plain.exchangeRates == ["USD": "0.92"])
    }

    @Test("PostgreSQL: databaseURL from SCA_DATABASE_URL, a postgres:// URL only, and a shared server key required")
    func databaseURL() throws {
        let loader = ConfigurationLoader()
        #expect(ConfigurationLoader.environmentName(of: "databaseURL") == "SCA_DATABASE_URL")
        let url = "postgres://sca:secret@db.internal:5432/sca?sslmode=require"
        let key = Base64URL.encode([UInt8](repeating: 7, count: 32))
        let configuration = try loader.load(
            file: nil, environment: ["SCA_DATABASE_URL": url, "SCA_SERVER_KEY": key], flags: [:])
        #expect(configuration.databaseURL == url)
        #expect(try loader.load(file: nil, environment: [:], flags: ["databaseURL": "postgresql://sca@db/sca", "serverKey": key])
            .databaseURL == "postgresql://sca@db/sca")

        // The key file under the data directory is one machine's: instances must share a key.
        #expect(throws: ConfigurationError.self) {
            try loader.load(file: nil, environment: ["SCA_DATABASE_URL": url], flags: [:])
        }
        for wrong in ["mysql://sca@db/sca", "db.internal:5432/sca", "postgres:/sca"] {
            #expect(throws: ConfigurationError.self, "\(wrong)") {
                try loader.load(file: nil, environment: [:], flags: ["databaseURL": wrong, "serverKey": key])
            }
        }
        // An empty value means SQLite, as if unset.
        #expect(try loader.load(file: nil, environment: ["SCA_DATABASE_URL": ""], flags: [:]).databaseURL == nil)
    }

    @Test("an unknown SCA_ variable is refused by name; the variables that are not settings are let through")
    func unknownEnvironmentVariable() throws {
        let loader = ConfigurationLoader()
        for name in ["SCA_PROT", "SCA_MAX_FAILED_ATTEMPT", "SCA_EXCHANGE_RATES_XYZ", "SCA_REQUIRED_CATEGORIES_REFUND"] {
            #expect("\(name)") {
                try loader.load(file: nil, environment: [name: "1"], flags: [:])
            } throws: { error in
                (error as? ConfigurationError)?.description.contains(name) == true
            }
        }
        let others = Dictionary(uniqueKeysWithValues: ConfigurationSetting.otherEnvironmentVariables.map { ($0.name, "x") })
        #expect(Set(others.keys) == ["SCA_CONFIG", "SCA_SERVER", "SCA_TEST_POSTGRES_URL", "SCA_TEST_SCHEMATHESIS"])
        _ = try loader.load(file: nil, environment: others.merging(["HOME": "/root", "sca_port": "1"]) { $1 }, flags: [:])
        // Every key has a variable of its own.
        #expect(Set(ConfigurationLoader.keys.map(ConfigurationLoader.environmentName)).count == ConfigurationLoader.keys.count)
        #expect(try loader.load(file: nil, environment: ["SCA_EXCHANGE_RATES_USD": "0.9"], flags: [:]).exchangeRates == ["USD": "0.9"])
        #expect(try loader.load(file: nil, environment: ["SCA_MESSAGE_SENDER": "outbox"], flags: [:]).messageSender == .outbox)
    }

    @Test("docs/configuration.md's configuration section is the table's reference, as `sca-server config reference` prints it")
    func readmeReference() throws {
        // Tests/SCAServerTests/Unit/<this file> → the package's root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("docs").appendingPathComponent("configuration.md"), encoding: .utf8)
        let begin = "<!-- configuration reference:"
        let end = "<!-- end of configuration reference -->"
        let section = try #require(readme.range(of: begin).flatMap { start in
            readme.range(of: end, range: start.upperBound..<readme.endIndex).map { readme[start.lowerBound..<$0.lowerBound] }
        })
        let body = section.drop { $0 != "\n" }.dropFirst()
        #expect(String(body) == ConfigurationSetting.reference(), "run `sca-server config reference` and paste it into docs/configuration.md")
    }
}
