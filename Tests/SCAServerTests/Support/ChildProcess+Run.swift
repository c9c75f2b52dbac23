import Foundation

extension ChildProcess {
    /// How a child run to its end ended, and everything it wrote to standard output and error.
    struct Run: Sendable {
        var termination: Termination
        var output: Data
        var errors: Data

        /// As ``ChildProcess/Termination/status``.
        var status: Int32 { termination.status }
        var outputText: String { String(decoding: output, as: UTF8.self) }
        var errorText: String { String(decoding: errors, as: UTF8.self) }
    }

    /// Starts `executable` and waits for it to end without blocking a thread: its standard
    /// output and error go through pipes that ``PipeReader``s read as it writes (so it never
    /// blocks on a full pipe), and its end is awaited through ``termination()``.
    /// - Parameter killAfter: SIGKILL the child if it is still running after this long.
    static func run(
        _ executable: URL, arguments: [String] = [], environment: [String: String]? = nil, directory: URL? = nil,
        standardInput: Stream = .null, killAfter timeout: Duration? = nil
    ) async throws -> Run {
        let output = Pipe()
        let errors = Pipe()
        let child = try ChildProcess(
            executable, arguments: arguments, environment: environment, directory: directory, standardInput: standardInput,
            standardOutput: .pipe(output), standardError: .pipe(errors), killAfter: timeout)
        // Reading starts before the wait for the end: a child with more to say than a pipe holds
        // would otherwise never end.
        let outputReader = PipeReader(output)
        let errorReader = PipeReader(errors)
        let termination = await child.termination()
        return Run(termination: termination, output: await outputReader.data(), errors: await errorReader.data())
    }
}
