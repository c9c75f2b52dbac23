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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: curl)
        process.arguments = ["--resolve", "localhost:\(port):127.0.0.1"] + words.dropFirst()
        let pipe = Pipe()
        process.standardOutput = pipe
        try ProcessLauncher.launch(process)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        ProcessLauncher.waitForExit(process)
        return data
    }
}
