import ArgumentParser
import SCAEngine

/// `sca-server config reference`: the configuration table in markdown, the reference section of
/// docs/configuration.md.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "About the configuration.", subcommands: [Reference.self])

    struct Reference: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every setting (key, SCA_ variable, default, meaning) as a markdown table.")

        func run() {
            print(ConfigurationSetting.reference(), terminator: "")
        }
    }
}
