#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The real `sca-server serve --port 0` binary in a process of its own, for what only a process
/// shows: signals, exit status, the listening socket. Output goes to files, so the server never
/// blocks on a full pipe.
final class ServeProcess: Sendable {
    private let process: Process
    private let stdoutPath: URL
    private let stderrPath: URL
    /// The exit status, delivered once by the termination handler.
    private let exited: AsyncStream<Int32>

    /// - Parameter environment: `SCA_*` settings on top of this process's environment without
    ///   its own `SCA_*` variables.
    init(directory: URL, environment: [String: String]) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        stdoutPath = directory.appendingPathComponent("stdout.log")
        stderrPath = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: stdoutPath.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath.path, contents: nil)
        let process = Process()
        process.executableURL = try ServerPair.serverBinary()
        process.arguments = ["serve", "--port", "0", "--data-dir", directory.appendingPathComponent("data").path]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SCA_") }
            .merging(environment) { _, new in new }
        process.standardOutput = try FileHandle(forWritingTo: stdoutPath)
        process.standardError = try FileHandle(forWritingTo: stderrPath)
        process.standardInput = FileHandle.nullDevice
        let (exited, continuation) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { finished in
            continuation.yield(finished.terminationReason == .exit ? finished.terminationStatus : -finished.terminationStatus)
            continuation.finish()
        }
        self.exited = exited
        try ProcessLauncher.launch(process)
        self.process = process
    }

    /// The port from "sca-server listening on http://127.0.0.1:PORT", waiting up to a minute.
    func port() async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, process.isRunning {
            let output = (try? String(contentsOf: stdoutPath, encoding: .utf8)) ?? ""
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("sca-server listening on http://") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                return port
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ServerPair.Failure(description: "sca-server did not start; its log ends:\n\(log.suffix(2_000))")
    }

    /// What the server wrote to standard error (its log).
    var log: String { (try? String(contentsOf: stderrPath, encoding: .utf8)) ?? "" }

    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// SIGTERM, then SIGKILL if it has not exited within ten seconds.
    func stop() async {
        guard process.isRunning else { return }
        signal(SIGTERM)
        _ = await waitForExit(timeout: .seconds(10))
    }

    /// The exit status (negative: killed by that signal); SIGKILL after `timeout`.
    func waitForExit(timeout: Duration = .seconds(30)) async -> Int32 {
        let pid = process.processIdentifier
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            kill(pid, SIGKILL)
        }
        defer { watchdog.cancel() }
        for await status in exited { return status }
        return -1
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port` right now.
    static func acceptsConnections(port: Int) -> Bool {
        (try? RawConnection(port: port)) != nil  // closed again when the connection is released
    }
}
