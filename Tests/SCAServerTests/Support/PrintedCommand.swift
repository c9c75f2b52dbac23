import Foundation

/// Runs a command line the server printed (`curl …`, words without quoting) as a newcomer
/// would paste it, with `localhost` resolved to 127.0.0.1 as the browser tests do.
enum PrintedCommand {
    static let curl = "/usr/bin/curl"

    /// What the command printed, or nil where curl is not installed.
    ///
    /// Awaited, never waited for on a thread: curl talks to the test's in-process server, whose
    /// handlers need the very threads (Swift concurrency's cooperative pool) a blocking wait
    /// would hold.
    static func run(_ command: String) async throws -> Data? {
        guard FileManager.default.isExecutableFile(atPath: curl) else { return nil }
        let words = command.split(separator: " ").map(String.init)
        guard words.first == "curl", let url = words.last.flatMap(URL.init(string:)), let port = url.port else {
            throw RawConnection.Failure(description: "not a curl line ending in a URL with a port: \(command)")
        }
        let run = try await ChildProcess.run(
            URL(fileURLWithPath: curl), arguments: ["--resolve", "localhost:\(port):127.0.0.1"] + words.dropFirst(),
            standardInput: .null)
        return run.output
    }
}
