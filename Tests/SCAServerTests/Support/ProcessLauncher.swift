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
}
