import Foundation

extension ConfigurationSetting {
    /// The configuration reference in markdown, as docs/configuration.md shows it between its
    /// `configuration reference` markers (`sca-server config reference` prints it; a test keeps
    /// that page equal to it).
    package static func reference() -> String {
        let defaults = ServerConfiguration()
        var lines = [
            "| key | environment | default | meaning |",
            "|---|---|---|---|",
        ]
        for setting in all {
            var meaning = setting.summary
            if let flag = setting.flag { meaning += "; flag `\(flag)`" }
            if let family = setting.family, !family.members.isEmpty, family.members.count <= 8 {
                meaning += "; `<\(family.placeholder)>`: " + family.members.map { "`\($0)`" }.joined(separator: ", ")
            }
            lines.append(
                "| `\(setting.displayKey)` | `\(setting.environmentDisplayName)` | \(setting.defaultText(defaults)) | \(meaning) |")
        }
        lines.append("")
        lines.append(
            "Any other `SCA_` variable, and any other key in the file, is refused at start-up, except these variables, which are not settings:")
        lines.append("")
        for (name, readBy) in otherEnvironmentVariables {
            lines.append("- `\(name)`, read by \(readBy)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The help of a setting's flag: its meaning and its variable.
    package var flagHelp: String {
        let plain = summary.replacingOccurrences(of: "`", with: "")
        return "\(plain.prefix(1).uppercased())\(plain.dropFirst()) (also \(environmentDisplayName))."
    }
}
