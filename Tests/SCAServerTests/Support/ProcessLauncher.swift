#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Starts the tests' child processes one at a time.
///
/// Foundation's `Process.run()` on Linux is not safe to call from several threads at once: the
/// parallel suite crashed inside it (a bad pointer in `memmove`) when two tests launched a
/// process together. Only the launch is serialised, which takes milliseconds; the children
/// still run side by side.
enum ProcessLauncher {
    private static let lock = NSLock()

    static func launch(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        try process.run()
    }

    /// A launched child that is killed if it outlives its time.
    struct Watched {
        /// Yields the child's exit status once, when it ends.
        let ended: AsyncStream<Int32>
        /// Kills the child at the time limit; cancel it once the child has ended.
        let watchdog: Task<Void, any Error>
        let pid: pid_t

        /// Waits for the child to end and stops the watchdog: told by the termination handler or
        /// by ``exitStatus(of:)``, whichever comes first.
        func status() async -> Int32 {
            let ended = self.ended
            let pid = self.pid
            let status = await withTaskGroup(of: Int32?.self) { group in
                group.addTask {
                    for await code in ended { return code }
                    return nil
                }
                group.addTask { await ProcessLauncher.exitStatus(of: pid) }
                var status: Int32?
                while status == nil, let next = await group.next() { status = next }
                group.cancelAll()
                return status ?? -1
            }
            watchdog.cancel()
            return status
        }
    }

    /// The exit of child `pid`, observed without Foundation: `waitid` with `WNOWAIT`, on a
    /// dispatch thread, leaves the child for Foundation to reap. Foundation on Linux has
    /// been seen to never call a termination handler (nor end `waitUntilExit`) while the whole
    /// suite launched children at once: the run then hung, idle, with a test waiting for a
    /// child that had long exited.
    /// - Returns: the exit code (or the number of the signal that ended it); nil when
    ///   Foundation reaped the child first, in which case its termination handler runs.
    static func exitStatus(of pid: pid_t) async -> Int32? {
        await withCheckedContinuation { continuation in
            // A dispatch thread rather than a Foundation `Thread`: with Foundation Threads here the
            // suite crashed inside `Process.run()` twice in two runs; with dispatch, two runs passed.
            DispatchQueue.global().async { continuation.resume(returning: waitForExit(pid)) }
        }
    }

    /// ``exitStatus(of:)`` blocking the calling thread, for the synchronous callers that used
    /// `waitUntilExit()`.
    @discardableResult
    static func waitForExit(_ process: Process) -> Int32 {
        if let status = waitForExit(process.processIdentifier) { return status }
        // Foundation reaped it first: its own state follows at once.
        process.waitUntilExit()
        return process.terminationStatus
    }

    private static func waitForExit(_ pid: pid_t) -> Int32? {
        var info = siginfo_t()
        while true {
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == 0 { return info._sifields._sigchld.si_status }
            if errno != EINTR { return nil }
        }
    }

    /// Launches `process` (as ``launch(_:)``) and sends it SIGKILL after `timeout`.
    static func launch(_ process: Process, killAfter timeout: Duration) throws -> Watched {
        let (ended, continuation) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { finished in
            continuation.yield(finished.terminationStatus)
            continuation.finish()
        }
        try launch(process)
        let pid = process.processIdentifier
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            kill(pid, SIGKILL)
        }
        return Watched(ended: ended, watchdog: watchdog, pid: pid)
    }
}
