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
    private let process: ChildProcess
    private let stdoutPath: URL
    private let stderrPath: URL

    /// - Parameter environment: `SCA_*` settings on top of this process's environment without
    ///   its own `SCA_*` variables.
    init(directory: URL, environment: [String: String]) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        stdoutPath = directory.appendingPathComponent("stdout.log")
        stderrPath = directory.appendingPathComponent("stderr.log")
        _ = FileManager.default.createFile(atPath: stdoutPath.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath.path, contents: nil)
        process = try ChildProcess(
            try ServerPair.serverBinary(),
            arguments: ["serve", "--port", "0", "--data-dir", directory.appendingPathComponent("data").path],
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SCA_") }
                .merging(environment) { _, new in new },
            standardInput: .null,
            standardOutput: .file(try FileHandle(forWritingTo: stdoutPath)),
            standardError: .file(try FileHandle(forWritingTo: stderrPath)))
    }

    /// A server whose test ends without ``stop()`` (a failure, or the cancellation at a time
    /// limit) goes with it: nothing else would ever stop it, and it would outlive the test run.
    deinit {
        process.kill()
    }

    /// The port from "sca-server listening on http://127.0.0.1:PORT" (or https), waiting up to
    /// three minutes: the bound stops a server that never starts (one that exits ends the wait at
    /// once), and a debug build starting while the whole suite loads both cores took over a minute.
    func port() async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(180)
        while ContinuousClock.now < deadline, process.isRunning {
            let output = (try? String(contentsOf: stdoutPath, encoding: .utf8)) ?? ""
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("sca-server listening on http") }),
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
        process.send(signal)
    }

    /// SIGTERM, then SIGKILL if it has not exited within ten seconds.
    func stop() async {
        guard process.isRunning else { return }
        signal(SIGTERM)
        _ = await waitForExit(timeout: .seconds(10))
    }

    /// The exit status (negative: killed by that signal); SIGKILL after `timeout`.
    func waitForExit(timeout: Duration = .seconds(30)) async -> Int32 {
        let process = self.process
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            process.kill()
        }
        defer { watchdog.cancel() }
        switch await process.termination() {
        case .exited(let code): return code
        case .signalled(let signal): return -signal
        case .lost: return -1
        }
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port` right now.
    static func acceptsConnections(port: Int) -> Bool {
        (try? RawConnection(port: port)) != nil  // closed again when the connection is released
    }

    /// When 127.0.0.1:`port` first refused a connection, trying every 10 ms for up to `limit`;
    /// nil if it never did.
    static func firstRefusal(port: Int, within limit: Duration) async -> ContinuousClock.Instant? {
        await onThread { pollForRefusal(port: port, within: limit) }
    }

    /// Sends `signal` after `delay`, then answers when 127.0.0.1:`port` first refused a
    /// connection within `limit` (nil if it never did).
    func signal(_ signal: Int32, after delay: Duration, thenFirstRefusalOf port: Int, within limit: Duration) async
        -> ContinuousClock.Instant?
    {
        await Self.onThread {
            Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            self.signal(signal)
            return Self.pollForRefusal(port: port, within: limit)
        }
    }

    // Timing runs on a thread of its own: on the cooperative pool of a busy test run a sleeping
    // task may wake seconds late, so a poll would miss its deadline without having looked, and a
    // signal meant for a request in flight could come after its answer.
    private static func onThread<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }

    private static func pollForRefusal(port: Int, within limit: Duration) -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if !acceptsConnections(port: port) { return ContinuousClock.now }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }
}
