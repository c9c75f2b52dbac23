import Foundation
import SCACore

/// Builds a `ServerConfiguration` from defaults < a JSON file < `SCA_*` environment < flags.
///
/// Every source speaks the same keys: camelCase names such as `port`, `dataDir`,
/// `requiredCategories.payment`. In the environment a key becomes `SCA_` plus its upper
/// snake case (`SCA_DATA_DIR`, `SCA_REQUIRED_CATEGORIES_PAYMENT`); in the file nested objects
/// stand for dots (`{"requiredCategories": {"payment": 3}}`).
package struct ConfigurationLoader: Sendable {
    /// Every key the loader understands, families expanded: the rows of
    /// `ConfigurationSetting.all`. An unknown key in the file or the flags, or an unknown
    /// `SCA_` variable, is an error, so that a typo never silently leaves a security setting at
    /// its default.
    package static let keys: [String] = ConfigurationSetting.all.flatMap(\.concreteKeys)

    /// The key of each `SCA_` variable that is a setting.
    static let keysByEnvironmentName: [String: String] = Dictionary(
        keys.map { (environmentName(of: $0), $0) }, uniquingKeysWith: { first, _ in first })

    package init() {}

    /// - Parameters:
    ///   - file: path of a JSON configuration file, if any.
    ///   - environment: the process environment (only `SCA_*` keys are read).
    ///   - flags: values given on the command line, by key.
    /// - Throws: `ConfigurationError` for an unreadable file, an unknown key or a bad value.
    package func load(file: String?, environment: [String: String], flags: [String: String]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        // The keys set by a file, the environment or a flag, so that the demo's own budgets
        // never override what was configured.
        var configured: Set<String> = []
        if let file {
            for (key, value) in try Self.readFile(file) {
                try Self.apply(key: key, value: value, to: &configuration)
                configured.insert(key)
            }
        }
        let others = Set(ConfigurationSetting.otherEnvironmentVariables.map(\.name))
        for name in environment.keys.sorted() where name.hasPrefix("SCA_") && !others.contains(name) {
            guard Self.keysByEnvironmentName[name] != nil || ConfigurationSetting.openFamilyKey(environmentName: name) != nil
            else {
                throw ConfigurationError("unknown environment variable \(name)")
            }
        }
        for key in Self.keys {
            if let value = environment[Self.environmentName(of: key)] {
                try Self.apply(key: key, value: value, to: &configuration)
                configured.insert(key)
            }
        }
        // Members of open families (`SCA_ROLES_<ROLE>`), in a stable order.
        for name in environment.keys.sorted() where Self.keysByEnvironmentName[name] == nil {
            if let key = ConfigurationSetting.openFamilyKey(environmentName: name), let value = environment[name] {
                try Self.apply(key: key, value: value, to: &configuration)
            }
        }
        for (key, value) in flags {
            try Self.apply(key: key, value: value, to: &configuration)
            configured.insert(key)
        }
        if configuration.demo { configuration.rateLimits.applyDemoSends(except: configured) }
        try configuration.validate()
        return configuration
    }

    /// `dataDir` → `SCA_DATA_DIR`, `requiredCategories.login` → `SCA_REQUIRED_CATEGORIES_LOGIN`.
    package static func environmentName(of key: String) -> String {
        var name = "SCA_"
        let characters = Array(key)
        for (index, character) in characters.enumerated() {
            if character == "." || character == "_" {
                name += "_"
                continue
            }
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                // A word starts at a capital after a lower-case letter (`dataDir`), or at the
                // last capital of an acronym followed by a word (`clientCAFile`: `CA_FILE`).
                let afterWord = !previous.isUppercase && previous != "." && previous != "_"
                if afterWord || (previous.isUppercase && next?.isLowercase == true) { name += "_" }
            }
            name += character.uppercased()
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
        for setting in ConfigurationSetting.all {
            if let member = setting.member(of: key) {
                return try setting.assign(value, member, key, &configuration)
            }
        }
        throw ConfigurationError("unknown configuration key \(key)")
    }
}
