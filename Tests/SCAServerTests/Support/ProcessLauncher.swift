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

        /// Waits for the child to end and stops the watchdog.
        func status() async -> Int32 {
            var status: Int32 = -1
            for await code in ended { status = code }
            watchdog.cancel()
            return status
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
        return Watched(ended: ended, watchdog: watchdog)
    }
}
