#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import Synchronization

/// A child process for the tests, started with `posix_spawn` and reaped by a blocking `waitpid`
/// of its own: no Foundation `Process` anywhere in the tests.
///
/// Why not `Process`: on Linux the parallel suite crashed inside `Process.run()` (signal 11, a
/// bad pointer in `memmove`) when two tests launched a child together, and still crashed, in
/// two whole-suite runs out of two on a loaded machine, once every launch was serialised behind
/// a lock: the race is with Foundation's own machinery (its monitor thread and termination
/// handling), which the tests cannot serialise. Foundation was also seen never to call a
/// termination handler (nor end `waitUntilExit()`) for a child that had long exited, which hung
/// the run. Here the only moving parts are `posix_spawn`, which is safe to call from any thread
/// at once, and one thread per child that waits for it and reaps it; nothing else reaps it.
///
/// The child gets the given file descriptors 0, 1 and 2 and no other (so a child never holds
/// another child's pipe open), default signal handlers and no blocked signals. The parent closes
/// its copies of the child's ends of pipes, so reading a pipe to its end waits for the child only.
///
/// Nothing here blocks the caller's thread: a test awaits the child's end (``termination()``),
/// and reads its pipes with ``PipeReader`` (or ``run(_:arguments:environment:directory:standardInput:killAfter:)``).
/// There is deliberately no blocking `waitUntilExit()`: called from a test it would hold one of
/// the few threads of Swift concurrency's cooperative pool for the child's whole run.
final class ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    enum Stream {
        /// The test process's own.
        case inherit
        /// `/dev/null`.
        case null
        /// A file (or any descriptor) the caller opened and still owns.
        case file(FileHandle)
        /// The child's end of a pipe: reading for standard input, writing for output. The parent
        /// closes its copy of that end once the child is started.
        case pipe(Pipe)
    }

    /// How the child ended.
    enum Termination: Sendable, Equatable {
        /// It exited with this code.
        case exited(Int32)
        /// This signal ended it.
        case signalled(Int32)
        /// It was reaped by someone else (never expected: nothing else waits for our children).
        case lost

        /// As Foundation's `terminationStatus`: the exit code, or the number of the signal
        /// (-1 when lost).
        var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signalled(let signal): signal
            case .lost: -1
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private struct State: ~Copyable {
        var termination: Termination?
        var waiters: [CheckedContinuation<Termination, Never>] = []
        var watchdog: Task<Void, any Error>?
    }

    let processIdentifier: pid_t
    private let state = Mutex(State())

    /// Starts `executable` now.
    /// - Parameters:
    ///   - environment: the child's whole environment; nil for this process's.
    ///   - directory: the child's working directory; nil for this process's.
    ///   - killAfter: SIGKILL the child if it is still running after this long, so a hung child
    ///     fails its test rather than hanging the run.
    init(
        _ executable: URL, arguments: [String] = [], environment: [String: String]? = nil, directory: URL? = nil,
        standardInput: Stream = .null, standardOutput: Stream = .inherit, standardError: Stream = .inherit,
        killAfter timeout: Duration? = nil
    ) throws {
        processIdentifier = try Self.spawn(
            executable.path, arguments: arguments, environment: environment ?? ProcessInfo.processInfo.environment,
            directory: directory?.path, streams: [standardInput, standardOutput, standardError])
        // The parent's copies of the child's pipe ends: with them open a reader would never see
        // the end of the child's output, nor the child the end of its input.
        if case .pipe(let pipe) = standardInput { try? pipe.fileHandleForReading.close() }
        for stream in [standardOutput, standardError] {
            if case .pipe(let pipe) = stream { try? pipe.fileHandleForWriting.close() }
        }
        // A serial queue of its own runs on a thread of its own (an overcommitting one): a
        // blocked wait never takes a thread from the global pool that Swift concurrency uses.
        DispatchQueue(label: "ChildProcess \(processIdentifier)").async { self.reap() }
        if let timeout {
            let watchdog = Task {
                try await Task.sleep(for: timeout)
                self.kill()
            }
            let ended = state.withLock { state in
                state.watchdog = watchdog
                return state.termination != nil
            }
            if ended { watchdog.cancel() }
        }
    }

    /// Whether the child has not been reaped yet.
    var isRunning: Bool { state.withLock { $0.termination == nil } }

    /// How the child ended, once it has.
    func termination() async -> Termination {
        await withCheckedContinuation { continuation in
            let ended: Termination? = state.withLock { state in
                if let termination = state.termination { return termination }
                state.waiters.append(continuation)
                return nil
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    /// As Foundation's `terminationStatus`, once the child has ended: its exit code, or the
    /// number of the signal that ended it.
    func status() async -> Int32 { await termination().status }

    /// Sends `signal` to the child unless it has already been reaped (its pid may then be
    /// another process's).
    func send(_ signal: Int32) {
        state.withLock { state in
            if state.termination == nil { deliver(signal, to: processIdentifier) }
        }
    }

    /// SIGTERM.
    func terminate() { send(SIGTERM) }

    /// SIGINT.
    func interrupt() { send(SIGINT) }

    /// SIGKILL.
    func kill() { send(SIGKILL) }

    /// Waits for the child to exit without reaping it (`WNOWAIT`), then reaps it and records how
    /// it ended under the lock that ``send(_:)`` takes, so a signal never reaches a reused pid.
    private func reap() {
        var info = siginfo_t()
        var observed = false
        while !observed {
            if waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == 0 {
                observed = true
            } else if errno != EINTR {
                break
            }
        }
        let (termination, waiters, watchdog) = state.withLock { state in
            var termination = Termination.lost
            var status: Int32 = 0
            if observed, waitpid(processIdentifier, &status, 0) == processIdentifier {
                // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (macros).
                termination = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
            }
            state.termination = termination
            let waiters = state.waiters
            state.waiters = []
            return (termination, waiters, state.watchdog)
        }
        watchdog?.cancel()
        for waiter in waiters { waiter.resume(returning: termination) }
    }

    /// `posix_spawn` with the streams as descriptors 0, 1 and 2, every other descriptor closed,
    /// default signal handlers and an empty signal mask.
    private static func spawn(
        _ path: String, arguments: [String], environment: [String: String], directory: String?, streams: [Stream]
    ) throws -> pid_t {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        try check(posix_spawn_file_actions_init(&actions), "posix_spawn_file_actions_init")
        defer { posix_spawn_file_actions_destroy(&actions) }
        try check(posix_spawnattr_init(&attributes), "posix_spawnattr_init")
        defer { posix_spawnattr_destroy(&attributes) }

        for (target, stream) in zip(Int32(0)..., streams) {
            switch stream {
            case .inherit:
                #if canImport(Darwin)
                // POSIX_SPAWN_CLOEXEC_DEFAULT below closes whatever is not named here.
                try check(posix_spawn_file_actions_addinherit_np(&actions, target), "addinherit_np")
                #endif
            case .null:
                try check(
                    posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0),
                    "addopen /dev/null")
            case .file(let handle):
                try check(posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target), "adddup2")
            case .pipe(let pipe):
                let end = target == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                try check(posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, target), "adddup2")
            }
        }
        if let directory {
            #if canImport(Darwin)
            try check(posix_spawn_file_actions_addchdir_np(&actions, directory), "addchdir_np")
            #else
            try check(GlibcSpawn.addchdir(&actions, directory), "posix_spawn_file_actions_addchdir_np")
            #endif
        }

        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #else
        // After the dup2s above: their sources are closed too.
        try check(GlibcSpawn.addclosefrom(&actions, 3), "posix_spawn_file_actions_addclosefrom_np")
        #endif
        try check(posix_spawnattr_setflags(&attributes, Int16(flags)), "posix_spawnattr_setflags")
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        try check(posix_spawnattr_setsigmask(&attributes, &noSignals), "posix_spawnattr_setsigmask")
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        try check(posix_spawnattr_setsigdefault(&attributes, &allSignals), "posix_spawnattr_setsigdefault")

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(result)))")
        }
        return pid
    }

    private static func check(_ result: Int32, _ call: String) throws {
        guard result == 0 else { throw Failure(description: "\(call): \(String(cString: strerror(result)))") }
    }
}

/// `kill(2)`, outside the class whose ``ChildProcess/kill()`` would hide it.
private func deliver(_ signal: Int32, to pid: pid_t) {
    _ = kill(pid, signal)
}

#if !canImport(Darwin)
/// The glibc extensions Swift does not import (they need `_GNU_SOURCE`), looked up by name:
/// `posix_spawn_file_actions_addchdir_np` (glibc 2.29) and `posix_spawn_file_actions_addclosefrom_np`
/// (glibc 2.34).
private enum GlibcSpawn {
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static func addchdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ directory: String) -> Int32 {
        guard let symbol = symbol("posix_spawn_file_actions_addchdir_np") else { return ENOSYS }
        return unsafeBitCast(symbol, to: AddChdir.self)(actions, directory)
    }

    static func addclosefrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) -> Int32 {
        guard let symbol = symbol("posix_spawn_file_actions_addclosefrom_np") else { return ENOSYS }
        return unsafeBitCast(symbol, to: AddClosefrom.self)(actions, lowest)
    }

    private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(dlopen(nil, RTLD_NOW), name)
    }
}
#endif
