#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import SCAEngine

extension TerminalAppProcess {
    /// One line of a conversation with the child: written once `ready` holds (asked again
    /// every 50 ms with what the child printed so far, both streams), so an answer can wait for
    /// its prompt or for a code to reach the outbox.
    struct Reply: Sendable {
        var ready: @Sendable (_ printed: String) throws -> Bool
        var line: @Sendable () throws -> String

        /// A line written at once.
        static func now(_ text: String) -> Reply { Reply(ready: { _ in true }, line: { text }) }

        /// The `count`-th code sent to `destination` (its first six characters), once it is in
        /// the outbox.
        static func code(_ count: Int, sentTo destination: String, in outbox: OutboxMessageSender) -> Reply {
            Reply(
                ready: { _ in try outbox.messages().filter { $0.to == destination }.count >= count },
                line: { String(try outbox.messages().filter { $0.to == destination }[count - 1].text.prefix(6)) })
        }
    }

    /// Runs `sca <arguments> --home <home>` with standard input a pipe fed as the run goes:
    /// each of `replies` in turn, when it is ready; then standard input is closed. Output goes
    /// to files, the environment and `locale` are as ``run(_:input:home:locale:timeout:)`` has
    /// them, and the child is killed after `timeout`.
    static func interact(
        _ arguments: [String], home: URL, replies: [Reply], locale: [String: String] = [:], timeout: Duration = .seconds(60)
    ) async throws -> Result {
        guard let binary else { throw CocoaError(.fileNoSuchFile) }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sca-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputFile = scratch.appendingPathComponent("stdout")
        let errorFile = scratch.appendingPathComponent("stderr")
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        func printed() -> String {
            [outputFile, errorFile].map { String(decoding: (try? Data(contentsOf: $0)) ?? Data(), as: UTF8.self) }
                .joined(separator: "\n")
        }

        let environment = appEnvironment(home: home, locale: locale)
        let input = Pipe()
        let standardOutput = try FileHandle(forWritingTo: outputFile)
        let standardError = try FileHandle(forWritingTo: errorFile)
        defer {
            try? standardOutput.close()
            try? standardError.close()
        }
        let process = try ChildProcess(
            binary, arguments: arguments + ["--home", home.path], environment: environment, standardInput: .pipe(input),
            standardOutput: .file(standardOutput), standardError: .file(standardError), killAfter: timeout)
        defer { process.kill() }  // a reply that throws ends the run, and the child with it
        // Nothing here holds a thread while the child runs: the wait is a suspension
        // (`Task.sleep`), the output is read from files, and a reply is a few bytes into a pipe
        // the child reads, so the tests and in-process servers running alongside are not starved.
        for reply in replies {
            while process.isRunning, try !reply.ready(printed()) { try await Task.sleep(for: .milliseconds(50)) }
            guard process.isRunning else { break }
            let line = Data((try reply.line() + "\n").utf8)
            // A child that ended since the check (EPIPE) shows in the status below, with what it
            // printed. The deprecated `write(_:)` traps on that error, ending the whole test run.
            try? input.fileHandleForWriting.write(contentsOf: line)
        }
        try? input.fileHandleForWriting.close()
        let status = await process.status()
        return Result(
            status: status,
            stdout: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }
}
