import Foundation
import SCACore

/// Builds a `ServerConfiguration` from defaults < a JSON file < `SCA_*` environment < flags.
///
/// Every source speaks the same keys: camelCase names such as `port`, `dataDir`,
/// `requiredCategories.payment`. In the environment a key becomes `SCA_` plus its upper
/// snake case (`SCA_DATA_DIR`, `SCA_REQUIRED_CATEGORIES_PAYMENT`); in the file nested objects
/// stand for dots (`{"requiredCategories": {"payment": 3}}`).
public struct ConfigurationLoader: Sendable {
    /// Every key the loader understands; an unknown key in the file is an error, so that a
    /// typo never silently leaves a security setting at its default.
    public static let keys: [String] = {
        var keys = [
            "host", "port", "dataDir", "databaseURL", "adminKey", "serverKey", "demo", "issuer", "audience",
            "challengeLifetime", "codeLifetime", "codeResendInterval", "maxCodeSends",
            "accessTokenLifetime", "refreshTokenLifetime", "sessionIdleTimeout",
            "maxFailedAttempts", "firstBlockSeconds", "maxTemporaryBlocks",
            "scryptLogN", "scryptR", "scryptP", "passwordHashConcurrency", "passwordHashQueueLimit", "messageSender", "webhookURL", "maxBodySize",
            "maxDevicesPerUser", "maxDeviceFailures", "activationCodeLifetime", "activationCodeMaxTries",
            "highValuePaymentThreshold", "trustedProxyHeader",
            // Send and challenge budgets, and what a decoy looks like (issue 15).
            "sendLimitsPerDestination", "sendLimitsPerUser", "sendLimitsPerClient", "sendLimitsGlobal",
            "challengeLimitsPerClient", "decoyMethods", "decoyPhonePattern",
            // Database outage (issue 15, item 10).
            "databaseTimeout",
            // Audit checkpoints (issue 15, item 11).
            "auditCheckpointFile", "auditCheckpointInterval",
            // Slow clients and logging (issue 15).
            "requestReadTimeout", "connectionIdleTimeout", "maxConnections", "logLevel",
        ]
        for currency in Currency.all where currency.code != "EUR" {
            keys.append("exchangeRates.\(currency.code)")
        }
        for operation in OperationKind.allCases {
            keys += ["requiredCategories.\(operation.rawValue)", "verdict.\(operation.rawValue)", "methods.\(operation.rawValue)"]
        }
        return keys
    }()

    public init() {}

    /// - Parameters:
    ///   - file: path of a JSON configuration file, if any.
    ///   - environment: the process environment (only `SCA_*` keys are read).
    ///   - flags: values given on the command line, by key.
    /// - Throws: `ConfigurationError` for an unreadable file, an unknown key or a bad value.
    public func load(file: String?, environment: [String: String], flags: [String: String]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        if let file {
            for (key, value) in try Self.readFile(file) {
                try Self.apply(key: key, value: value, to: &configuration)
            }
        }
        for key in Self.keys {
            if let value = environment[Self.environmentName(of: key)] {
                try Self.apply(key: key, value: value, to: &configuration)
            }
        }
        for (key, value) in flags {
            try Self.apply(key: key, value: value, to: &configuration)
        }
        try configuration.validate()
        return configuration
    }

    /// `dataDir` → `SCA_DATA_DIR`, `requiredCategories.login` → `SCA_REQUIRED_CATEGORIES_LOGIN`.
    public static func environmentName(of key: String) -> String {
        var name = "SCA_"
        var previousWasLower = false
        for character in key {
            if character == "." || character == "_" {
                name += "_"
                previousWasLower = false
            } else if character.isUppercase {
                if previousWasLower { name += "_" }
                name += character.uppercased()
                previousWasLower = false
            } else {
                name += character.uppercased()
                previousWasLower = true
            }
        }
        return name
    }

    static func readFile(_ path: String) throws -> [(String, String)] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("cannot read configuration file \(path)")
        }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ConfigurationError("configuration file \(path) is not valid JSON")
        }
        guard case .object = root else { throw ConfigurationError("configuration file \(path) must hold a JSON object") }
        var pairs: [(String, String)] = []
        func flatten(_ value: JSONValue, prefix: String) throws {
            switch value {
            case .object(let members):
                for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                    try flatten(member, prefix: prefix.isEmpty ? key : "\(prefix).\(key)")
                }
            case .string(let string): pairs.append((prefix, string))
            case .bool(let bool): pairs.append((prefix, bool ? "true" : "false"))
            case .number(let number):
                pairs.append((prefix, number == number.rounded() ? String(Int(number)) : String(number)))
            case .array(let items):
                let strings = try items.map { item -> String in
                    guard case .string(let string) = item else { throw ConfigurationError("\(prefix): only arrays of strings are allowed") }
                    return string
                }
                pairs.append((prefix, strings.joined(separator: ",")))
            case .null: break
            }
        }
        try flatten(root, prefix: "")
        return pairs
    }

    static func apply(key: String, value: String, to configuration: inout ServerConfiguration) throws {
        func integer() throws -> Int {
            guard let number = Int(value.trimmingCharacters(in: .whitespaces)) else {
                throw ConfigurationError("\(key) must be a whole number, got \"\(value)\"")
            }
            return number
        }
        func boolean() throws -> Bool {
            switch value.lowercased() {
            case "true", "1", "yes", "on": return true
            case "false", "0", "no", "off": return false
            default: throw ConfigurationError("\(key) must be true or false, got \"\(value)\"")
            }
        }
        switch key {
        case "host": configuration.host = value
        case "port": configuration.port = try integer()
        case "dataDir": configuration.dataDirectory = value
        case "databaseURL": configuration.databaseURL = value.isEmpty ? nil : value
        case "adminKey": configuration.adminKey = value.isEmpty ? nil : value
        case "serverKey": configuration.serverKey = value.isEmpty ? nil : value
        case "demo": configuration.demo = try boolean()
        case "issuer": configuration.issuer = value
        case "audience": configuration.audience = value
        case "challengeLifetime": configuration.challengeLifetime = try integer()
        case "codeLifetime": configuration.codeLifetime = try integer()
        case "codeResendInterval": configuration.codeResendInterval = try integer()
        case "maxCodeSends": configuration.maxCodeSends = try integer()
        case "accessTokenLifetime": configuration.accessTokenLifetime = try integer()
        case "refreshTokenLifetime": configuration.refreshTokenLifetime = try integer()
        case "sessionIdleTimeout": configuration.sessionIdleTimeout = try integer()
        case "maxFailedAttempts": configuration.lockout.maxFailedAttempts = try integer()
        case "firstBlockSeconds": configuration.lockout.firstBlockDuration = TimeInterval(try integer())
        case "maxTemporaryBlocks": configuration.lockout.maxTemporaryBlocks = try integer()
        case "scryptLogN": configuration.passwordHashing.logN = try integer()
        case "scryptR": configuration.passwordHashing.r = try integer()
        case "scryptP": configuration.passwordHashing.p = try integer()
        case "passwordHashConcurrency": configuration.passwordHashConcurrency = try integer()
        case "passwordHashQueueLimit": configuration.passwordHashQueueLimit = try integer()
        case "messageSender": configuration.messageSender = value
        case "webhookURL": configuration.webhookURL = value.isEmpty ? nil : value
        case "maxBodySize": configuration.maxBodySize = try integer()
        case "maxDevicesPerUser": configuration.maxDevicesPerUser = try integer()
        case "maxDeviceFailures": configuration.maxDeviceFailures = try integer()
        case "activationCodeLifetime": configuration.activationCodeLifetime = try integer()
        case "activationCodeMaxTries": configuration.activationCodeMaxTries = try integer()
        case "highValuePaymentThreshold": configuration.highValuePaymentThreshold = value
        case "trustedProxyHeader": configuration.trustedProxyHeader = value.isEmpty ? nil : value
        // Send and challenge budgets, and what a decoy looks like (issue 15).
        case "sendLimitsPerDestination": configuration.rateLimits.sendsPerDestination = try RateWindow.list(value, key: key)
        case "sendLimitsPerUser": configuration.rateLimits.sendsPerUser = try RateWindow.list(value, key: key)
        case "sendLimitsPerClient": configuration.rateLimits.sendsPerClient = try RateWindow.list(value, key: key)
        case "sendLimitsGlobal": configuration.rateLimits.sendsGlobal = try RateWindow.list(value, key: key)
        case "challengeLimitsPerClient": configuration.rateLimits.challengesPerClient = try RateWindow.list(value, key: key)
        case "decoyMethods":
            configuration.decoyMethods = try value.split(separator: ",").map {
                let id = $0.trimmingCharacters(in: .whitespaces)
                guard let method = AuthenticationMethod(rawValue: id) else { throw ConfigurationError("\(key): unknown method \(id)") }
                return method
            }
        case "decoyPhonePattern": configuration.decoyPhonePattern = value.trimmingCharacters(in: .whitespaces)
        // Database outage (issue 15, item 10).
        case "databaseTimeout":
            guard let seconds = Double(value.trimmingCharacters(in: .whitespaces)) else {
                throw ConfigurationError("\(key) must be a number of seconds, got \"\(value)\"")
            }
            configuration.databaseTimeout = seconds
        // Audit checkpoints (issue 15, item 11).
        case "auditCheckpointFile": configuration.auditCheckpointFile = value.isEmpty ? nil : value
        case "auditCheckpointInterval": configuration.auditCheckpointInterval = try integer()
        // Slow clients and logging (issue 15).
        case "requestReadTimeout": configuration.requestReadTimeout = try integer()
        case "connectionIdleTimeout": configuration.connectionIdleTimeout = try integer()
        case "maxConnections": configuration.maxConnections = try integer()
        case "logLevel": configuration.logLevel = value.trimmingCharacters(in: .whitespaces).lowercased()
        case _ where key.hasPrefix("exchangeRates."):
            configuration.exchangeRates[String(key.dropFirst("exchangeRates.".count)).uppercased()] = value
        default:
            let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let operation = OperationKind(rawValue: parts[1]) else {
                throw ConfigurationError("unknown configuration key \(key)")
            }
            var policy = configuration.policy(for: operation)
            switch parts[0] {
            case "requiredCategories": policy.requiredCategories = try integer()
            case "verdict":
                guard let verdict = Verdict(rawValue: value) else {
                    throw ConfigurationError("\(key) must be immediate or deferred, got \"\(value)\"")
                }
                policy.verdict = verdict
            case "methods":
                policy.methods = try value.split(separator: ",").map {
                    let id = $0.trimmingCharacters(in: .whitespaces)
                    guard let method = AuthenticationMethod(rawValue: id) else {
                        throw ConfigurationError("\(key): unknown method \(id)")
                    }
                    return method
                }
            default: throw ConfigurationError("unknown configuration key \(key)")
            }
            configuration.policies[operation] = policy
        }
    }
}
