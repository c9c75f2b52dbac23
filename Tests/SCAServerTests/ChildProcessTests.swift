#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// The tests' own child processes (``ChildProcess``): what the process-launching suites rely on.
// The time limit: a descriptor leaked into a child shows as a read that never ends.
@Suite("ChildProcess: posix_spawn children for the tests", .timeLimit(.minutes(1)))
struct ChildProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    /// Runs `script` in `/bin/sh` to its end: what it printed and how it ended.
    static func shell(_ script: String, environment: [String: String]? = nil, directory: URL? = nil) throws -> (
        output: String, termination: ChildProcess.Termination
    ) {
        let output = Pipe()
        let child = try ChildProcess(
            shell, arguments: ["-c", script, "sh", "first argument"], environment: environment, directory: directory,
            standardOutput: .pipe(output))
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        return (String(decoding: printed, as: UTF8.self), child.waitUntilExit())
    }

    @Test("arguments, environment, working directory and exit code reach the child and come back")
    func runsAsAsked() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.shell(
            #"printf '%s|%s|%s' "$1" "$GREETING" "$(pwd -P)"; exit 3"#, environment: ["GREETING": "hello", "PATH": "/usr/bin:/bin"],
            directory: directory)
        #expect(run.output == "first argument|hello|\(directory.resolvingSymlinksInPath().path)")
        #expect(run.termination == .exited(3))
        #expect(run.termination.status == 3)
    }

    @Test("without an environment the child gets this process's")
    func inheritsTheEnvironment() throws {
        let path = try #require(ProcessInfo.processInfo.environment["PATH"])
        #expect(try Self.shell(#"printf '%s' "$PATH""#).output == path)
    }

    @Test(
        "the child holds descriptors 0, 1 and 2 and no other",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "needs /proc (Linux)"))
    func noOtherDescriptors() throws {
        // `ls` lists the shell's descriptors; `; true` keeps the shell from becoming `ls`.
        let open = try Self.shell("ls /proc/$$/fd; true")
        #expect(open.output.split(separator: "\n") == ["0", "1", "2"])
    }

    @Test("a piped standard input reaches the child; closing it ends the child's input")
    func pipedInput() async throws {
        let input = Pipe()
        let output = Pipe()
        let child = try ChildProcess(
            URL(fileURLWithPath: "/bin/cat"), standardInput: .pipe(input), standardOutput: .pipe(output))
        input.fileHandleForWriting.write(Data("through the pipe".utf8))
        try input.fileHandleForWriting.close()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        #expect(String(decoding: printed, as: UTF8.self) == "through the pipe")
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
            #expect(child.waitUntilExit() == .signalled(signal))
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
                    let printed = output.fileHandleForReading.readDataToEndOfFile()
                    return (index, String(decoding: printed, as: UTF8.self), await child.status())
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
}
