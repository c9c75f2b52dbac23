import Foundation

/// Runs a command line the server printed (`curl …`, words without quoting) as a newcomer
/// would paste it, with `localhost` resolved to 127.0.0.1 as the browser tests do.
enum PrintedCommand {
    static let curl = "/usr/bin/curl"

    /// What the command printed, or nil where curl is not installed.
    static func run(_ command: String) throws -> Data? {
        guard FileManager.default.isExecutableFile(atPath: curl) else { return nil }
        let words = command.split(separator: " ").map(String.init)
        guard words.first == "curl", let url = words.last.flatMap(URL.init(string:)), let port = url.port else {
            throw RawConnection.Failure(description: "not a curl line ending in a URL with a port: \(command)")
        }
        let pipe = Pipe()
        let process = try ChildProcess(
            URL(fileURLWithPath: curl), arguments: ["--resolve", "localhost:\(port):127.0.0.1"] + words.dropFirst(),
            standardOutput: .pipe(pipe))
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
}
