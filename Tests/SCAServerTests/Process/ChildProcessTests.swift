#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import Synchronization
import Testing

/// The tests' own child processes (``ChildProcess``): what the process-launching suites rely on.
// The time limit: a descriptor leaked into a child shows as a read that never ends.
@Suite("ChildProcess: posix_spawn children for the tests", .timeLimit(.minutes(1)))
struct ChildProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    /// Runs `script` in `/bin/sh` to its end: what it printed and how it ended.
    static func shell(_ script: String, environment: [String: String]? = nil, directory: URL? = nil) async throws -> (
        output: String, termination: ChildProcess.Termination
    ) {
        let run = try await ChildProcess.run(
            shell, arguments: ["-c", script, "sh", "first argument"], environment: environment, directory: directory)
        return (run.outputText, run.termination)
    }

    @Test("arguments, environment, working directory and exit code reach the child and come back")
    func runsAsAsked() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await Self.shell(
            #"printf '%s|%s|%s' "$1" "$GREETING" "$(pwd -P)"; exit 3"#, environment: ["GREETING": "hello", "PATH": "/usr/bin:/bin"],
            directory: directory)
        #expect(run.output == "first argument|hello|\(directory.resolvingSymlinksInPath().path)")
        #expect(run.termination == .exited(3))
        #expect(run.termination.status == 3)
    }

    @Test("without an environment the child gets this process's")
    func inheritsTheEnvironment() async throws {
        let path = try #require(ProcessInfo.processInfo.environment["PATH"])
        #expect(try await Self.shell(#"printf '%s' "$PATH""#).output == path)
    }

    @Test(
        "the child holds descriptors 0, 1 and 2 and no other",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "needs /proc (Linux)"))
    func noOtherDescriptors() async throws {
        // `ls` lists the shell's descriptors; `; true` keeps the shell from becoming `ls`.
        let open = try await Self.shell("ls /proc/$$/fd; true")
        #expect(open.output.split(separator: "\n") == ["0", "1", "2"])
    }

    @Test("a piped standard input reaches the child; closing it ends the child's input")
    func pipedInput() async throws {
        let input = Pipe()
        let output = Pipe()
        let child = try ChildProcess(
            URL(fileURLWithPath: "/bin/cat"), standardInput: .pipe(input), standardOutput: .pipe(output))
        let printed = PipeReader(output)
        try input.fileHandleForWriting.write(contentsOf: Data("through the pipe".utf8))
        try input.fileHandleForWriting.close()
        #expect(await printed.text() == "through the pipe")
        #expect(await child.termination() == .exited(0))
    }

    @Test("terminate, interrupt and kill end the child by that signal; a reaped child gets no signal")
    func signals() async throws {
        for signal in [SIGTERM, SIGINT, SIGKILL] {
            let child = try ChildProcess(URL(fileURLWithPath: "/bin/sleep"), arguments: ["60"])
            #expect(child.isRunning)
            switch signal {
            case SIGTERM: child.terminate()
            case SIGINT: child.interrupt()
            default: child.kill()
            }
            #expect(await child.termination() == .signalled(signal))
            #expect(await child.status() == signal)
            #expect(!child.isRunning)
            child.kill()  // a no-op now: the pid is no longer the child's
            #expect(await child.termination() == .signalled(signal))
        }
    }

    @Test("a child still running at its time limit is killed")
    func killAfter() async throws {
        let child = try ChildProcess(URL(fileURLWithPath: "/bin/sleep"), arguments: ["60"], killAfter: .milliseconds(200))
        #expect(await child.termination() == .signalled(SIGKILL))
    }

    @Test("a missing executable is an error, not a child")
    func missingExecutable() {
        #expect(throws: ChildProcess.Failure.self) { try ChildProcess(URL(fileURLWithPath: "/nonexistent/sca-child")) }
    }

    @Test("many children started at once from many threads each print their own line and end")
    func concurrentLaunches() async throws {
        let outputs = try await withThrowingTaskGroup(of: (Int, String, Int32).self) { group in
            for index in 0..<48 {
                group.addTask {
                    let output = Pipe()
                    let child = try ChildProcess(
                        URL(fileURLWithPath: "/bin/echo"), arguments: ["child \(index)"], standardOutput: .pipe(output))
                    // Ends only when no other child holds this pipe's writing end.
                    let printed = PipeReader(output)
                    return (index, await printed.text(), await child.status())
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = ($1.1, $1.2) }
        }
        #expect(outputs.count == 48)
        for (index, (output, status)) in outputs {
            #expect(output == "child \(index)\n")
            #expect(status == 0)
        }
    }

    @Test("a child that writes far more than a pipe holds to both streams, error first, is read to the end and exits")
    func moreThanAPipeHolds() async throws {
        // 250 KB to standard error before a byte of standard output, then 300 KB to standard
        // output: read one stream at a time, or only after the exit, and the child blocks on a
        // full pipe (64 KB) for good; the time limit then kills it, which the status shows.
        let run = try await ChildProcess.run(
            Self.shell,
            arguments: ["-c", "head -c 250000 /dev/zero | tr '\\0' e >&2; head -c 300000 /dev/zero | tr '\\0' o; exit 7"],
            killAfter: .seconds(30))
        #expect(run.termination == .exited(7))
        // Counts and bytes apart: a failed `==` on 300 KB would have the report diff them, which
        // takes longer than the run.
        #expect(run.errors.count == 250_000)
        #expect(run.errors.allSatisfy { $0 == UInt8(ascii: "e") })
        #expect(run.output.count == 300_000)
        #expect(run.output.allSatisfy { $0 == UInt8(ascii: "o") })
    }

    @Test("children awaited at once, more than the cooperative pool has threads, hold none of its threads")
    func awaitedChildrenHoldNoThread() async throws {
        // More children than Swift concurrency's cooperative pool has threads (one per core).
        // Each waits for its input, which this test closes only once every child has started,
        // that is once every task of the group has run up to its wait. A wait that held a thread
        // of the pool (a blocking read, `waitUntilExit()`) would stop the group at the pool's
        // width, and the test with it: only the rescue below, on a thread outside the pool,
        // would end it, and that is the failure the test reports.
        let count = ProcessInfo.processInfo.activeProcessorCount + 16
        let inputs = (0..<count).map { _ in Pipe() }
        let released = Mutex(false)
        @Sendable func release(writing lines: Bool) -> Bool {
            released.withLock { done in
                guard !done else { return false }
                done = true
                for (index, input) in inputs.enumerated() {
                    if lines { try? input.fileHandleForWriting.write(contentsOf: Data("child \(index)\n".utf8)) }
                    try? input.fileHandleForWriting.close()
                }
                return true
            }
        }
        let rescued = Atomic(false)
        DispatchQueue(label: "ChildProcessTests rescue").asyncAfter(deadline: .now() + 30) {
            if release(writing: false) { rescued.store(true, ordering: .relaxed) }
        }

        let (started, starting) = AsyncStream<Void>.makeStream()
        let outputs = try await withThrowingTaskGroup(of: (Int, String, ChildProcess.Termination).self) { group in
            for (index, input) in inputs.enumerated() {
                group.addTask {
                    let output = Pipe()
                    let child = try ChildProcess(
                        URL(fileURLWithPath: "/bin/cat"), standardInput: .pipe(input), standardOutput: .pipe(output),
                        standardError: .null)
                    let printed = PipeReader(output)
                    starting.yield()
                    let termination = await child.termination()
                    return (index, await printed.text(), termination)
                }
            }
            var running = 0
            for await _ in started {
                running += 1
                if running == count { break }
            }
            _ = release(writing: true)
            return try await group.reduce(into: [:]) { $0[$1.0] = ($1.1, $1.2) }
        }
        let rescuedByTheTimer = rescued.load(ordering: .relaxed)
        #expect(!rescuedByTheTimer, "the children's waits held the pool's threads")
        #expect(outputs.count == count)
        for (index, (output, termination)) in outputs {
            #expect(output == "child \(index)\n")
            #expect(termination == .exited(0))
        }
    }
}
