#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import Synchronization

/// Reads the reading end of a pipe to its end, from the moment it is made, on a thread of its
/// own, and hands what it read to `async` callers.
///
/// Why: a blocking `read` (`readDataToEndOfFile()`, `availableData`) made from test code runs on
/// a thread of Swift concurrency's cooperative pool, which has one thread per core (two on the
/// CI machine). A few of those waiting on children starve every other test of the run, and the
/// in-process servers with them: their handlers run on that same pool, so a test blocked on a
/// child that talks to an in-process server can wait for itself. Reading as the child writes also
/// means a child never blocks on a full pipe (64 KB on Linux) while the test waits for it to exit.
final class PipeReader: Sendable {
    private struct State {
        var received = Data()
        var ended = false
        var waiters: [CheckedContinuation<Data, Never>] = []
    }

    private let state = Mutex(State())

    /// Starts reading `pipe` now. Start it before waiting for the writer to exit.
    convenience init(_ pipe: Pipe) {
        self.init(pipe.fileHandleForReading)
    }

    /// Starts reading `handle` now; the caller keeps owning it (it is not closed here).
    init(_ handle: FileHandle) {
        // As ChildProcess's reaper: a serial queue of its own runs on an overcommitting thread,
        // so the blocking reads never take a thread of the pool that Swift concurrency uses.
        DispatchQueue(label: "PipeReader \(handle.fileDescriptor)").async { self.drain(handle) }
    }

    /// Everything written to the pipe, once every writer has closed its end.
    func data() async -> Data {
        await withCheckedContinuation { continuation in
            let ended: Data? = state.withLock { state in
                if state.ended { return state.received }
                state.waiters.append(continuation)
                return nil
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    /// ``data()`` as UTF-8 text.
    func text() async -> String {
        String(decoding: await data(), as: UTF8.self)
    }

    private func drain(_ handle: FileHandle) {
        let descriptor = handle.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                state.withLock { $0.received.append(contentsOf: buffer[..<count]) }
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break  // the end (0), or an error that no further read would get past
            }
        }
        let (received, waiters) = state.withLock { state in
            state.ended = true
            defer { state.waiters = [] }
            return (state.received, state.waiters)
        }
        for waiter in waiters { waiter.resume(returning: received) }
        withExtendedLifetime(handle) {}
    }
}
