import Foundation

/// One run of the real `sca-server` binary for an admin command (`admin-key create …`), to its
/// end: its exit status and what it printed.
struct AdminCommand {
    var status: Int32
    var output: String
    var errors: String

    static func run(_ arguments: [String], environment: [String: String]) async throws -> AdminCommand {
        // Both streams are read as the command writes them (``ChildProcess/run``): reading them
        // only after its exit would never end for a command that fills a pipe first.
        let run = try await ChildProcess.run(
            try ServerPair.serverBinary(),
            arguments: arguments,
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SCA_") }
                .merging(environment) { _, new in new },
            standardInput: .null, killAfter: .seconds(120))
        return AdminCommand(status: run.status, output: run.outputText, errors: run.errorText)
    }
}
