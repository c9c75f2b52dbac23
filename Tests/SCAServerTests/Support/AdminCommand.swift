import Foundation

/// One run of the real `sca-server` binary for an admin command (`admin-key create …`), to its
/// end: its exit status and what it printed.
struct AdminCommand {
    var status: Int32
    var output: String
    var errors: String

    static func run(_ arguments: [String], environment: [String: String]) async throws -> AdminCommand {
        let output = Pipe()
        let errors = Pipe()
        let process = try ChildProcess(
            try ServerPair.serverBinary(),
            arguments: arguments,
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SCA_") }
                .merging(environment) { _, new in new },
            standardInput: .null, standardOutput: .pipe(output), standardError: .pipe(errors),
            killAfter: .seconds(120))
        let status = await process.status()
        return AdminCommand(
            status: status,
            output: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            errors: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }
}
