import Foundation

/// One row of the configuration table: a key, where its value goes in `ServerConfiguration`,
/// how it is parsed, how its default is shown and what it means. The loader (file, `SCA_*`
/// environment, flags), the flags' `--help` and docs/configuration.md all read
/// `ConfigurationSetting.all`, so a key is written once.
///
/// A family (`requiredCategories.<operation>`, `exchangeRates.<CUR>`) is one row whose key is a
/// prefix, a dot and a member from a fixed list.
package struct ConfigurationSetting: Sendable {
    /// The key in files and flags: `port`; for a family its prefix: `requiredCategories`.
    package let key: String
    /// For a family: the placeholder shown for the member, and the members accepted.
    package let family: Family?
    /// The command-line flag that sets it, if any (`--port`).
    package let flag: String?
    /// What it means, on one line (markdown).
    package let summary: String
    /// Stores `value` (of the key `key`, member `member` for a family) into a configuration.
    let assign: @Sendable (_ value: String, _ member: String, _ key: String, inout ServerConfiguration) throws -> Void
    /// The default, for the reference (markdown).
    let defaultText: @Sendable (ServerConfiguration) -> String

    /// The members of a family row.
    package struct Family: Sendable {
        /// Shown in the reference: `operation` gives `requiredCategories.<operation>`.
        package let placeholder: String
        /// Every member accepted after the dot, as written in files and flags.
        package let members: [String]
        /// Whether a member may be written in any case (currency codes).
        let anyCase: Bool
        /// For a family whose members are names the operator chooses (`roles.<role>`): which
        /// names are accepted; `members` is then empty.
        var openMembers: (@Sendable (String) -> Bool)? = nil
    }

    /// `requiredCategories.<operation>` for a family, the key otherwise.
    package var displayKey: String { family.map { "\(key).<\($0.placeholder)>" } ?? key }

    /// `SCA_PORT`; for a family `SCA_REQUIRED_CATEGORIES_<OPERATION>`.
    package var environmentDisplayName: String {
        let name = ConfigurationLoader.environmentName(of: key)
        return family.map { "\(name)_<\($0.placeholder.uppercased())>" } ?? name
    }

    /// Every concrete key: the key itself, or each member of the family.
    /// An open family (`roles.<role>`) has none: its keys are whatever names are given.
    package var concreteKeys: [String] {
        family.map { family in family.members.map { "\(key).\($0)" } } ?? [key]
    }

    /// The member `key` names, if it belongs to this row: `""` for a plain key.
    func member(of key: String) -> String? {
        guard let family else { return key == self.key ? "" : nil }
        guard key.hasPrefix(self.key + ".") else { return nil }
        let member = String(key.dropFirst(self.key.count + 1))
        if let accepts = family.openMembers { return accepts(member) ? member : nil }
        if family.anyCase {
            return family.members.first { $0.uppercased() == member.uppercased() }
        }
        return family.members.contains(member) ? member : nil
    }
}

extension ConfigurationSetting {
    /// A plain key stored at `path`: `parse` reads the text, `show` writes the default, unless
    /// `defaultText` says it better (a default that depends on the machine, or nil).
    static func value<Value>(
        _ key: String, _ path: WritableKeyPath<ServerConfiguration, Value> & Sendable, flag: String? = nil,
        parse: @escaping @Sendable (_ value: String, _ key: String) throws -> Value,
        show: @escaping @Sendable (Value) -> String, defaultText: String? = nil, _ summary: String
    ) -> ConfigurationSetting {
        ConfigurationSetting(
            key: key, family: nil, flag: flag, summary: summary,
            assign: { value, _, key, configuration in configuration[keyPath: path] = try parse(value, key) },
            defaultText: { configuration in defaultText ?? show(configuration[keyPath: path]) })
    }

    /// A family of keys `key.<member>`; `assign` receives the member.
    static func family(
        _ key: String, _ placeholder: String, members: [String], anyCase: Bool = false, defaultText: String,
        _ summary: String,
        assign: @escaping @Sendable (_ value: String, _ member: String, _ key: String, inout ServerConfiguration) throws -> Void
    ) -> ConfigurationSetting {
        ConfigurationSetting(
            key: key, family: Family(placeholder: placeholder, members: members, anyCase: anyCase), flag: nil,
            summary: summary, assign: assign, defaultText: { _ in defaultText })
    }

    /// A family whose members are names the operator chooses, each accepted by `accepts`
    /// (`roles.<role>`); in the environment `SCA_<KEY>_<MEMBER>`, the member lower-cased.
    static func openFamily(
        _ key: String, _ placeholder: String, accepts: @escaping @Sendable (String) -> Bool, defaultText: String,
        _ summary: String,
        assign: @escaping @Sendable (_ value: String, _ member: String, _ key: String, inout ServerConfiguration) throws -> Void
    ) -> ConfigurationSetting {
        ConfigurationSetting(
            key: key, family: Family(placeholder: placeholder, members: [], anyCase: false, openMembers: accepts), flag: nil,
            summary: summary, assign: assign, defaultText: { _ in defaultText })
    }

    /// The key an `SCA_` variable sets through an open family (`SCA_ROLES_SUPPORT` →
    /// `roles.support`), if any.
    static func openFamilyKey(environmentName name: String) -> String? {
        for setting in all {
            guard let family = setting.family, let accepts = family.openMembers else { continue }
            let prefix = ConfigurationLoader.environmentName(of: setting.key) + "_"
            guard name.hasPrefix(prefix) else { continue }
            let member = name.dropFirst(prefix.count).lowercased()
            if accepts(member) { return "\(setting.key).\(member)" }
        }
        return nil
    }

    static func integer(
        _ key: String, _ path: WritableKeyPath<ServerConfiguration, Int> & Sendable, flag: String? = nil,
        defaultText: String? = nil, _ summary: String
    ) -> ConfigurationSetting {
        value(key, path, flag: flag, parse: ConfigurationParser.integer, show: { "`\($0)`" }, defaultText: defaultText, summary)
    }

    static func text(
        _ key: String, _ path: WritableKeyPath<ServerConfiguration, String> & Sendable, flag: String? = nil, _ summary: String
    ) -> ConfigurationSetting {
        value(key, path, flag: flag, parse: { value, _ in value }, show: { "`\($0)`" }, summary)
    }

    /// An optional text: empty means unset, as if absent; `absent` says what unset means.
    static func optionalText(
        _ key: String, _ path: WritableKeyPath<ServerConfiguration, String?> & Sendable, flag: String? = nil,
        absent: String, _ summary: String
    ) -> ConfigurationSetting {
        value(
            key, path, flag: flag, parse: { value, _ in value.isEmpty ? nil : value },
            show: { $0.map { "`\($0)`" } ?? absent }, summary)
    }

    static func rateWindows(
        _ key: String, _ path: WritableKeyPath<ServerConfiguration, [RateWindow]> & Sendable, _ summary: String
    ) -> ConfigurationSetting {
        value(
            key, path, parse: RateWindow.list,
            show: { $0.isEmpty ? "`off`" : "`\($0.map(\.setting).joined(separator: ","))`" }, summary)
    }
}
