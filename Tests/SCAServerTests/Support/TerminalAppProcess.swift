#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// The `sca` executable run as a real process: scripted standard input, a private `--home`,
/// and what it printed. Output goes through files rather than pipes, so a chatty child can never
/// block on a full pipe while the test waits for it.
enum TerminalAppProcess {
    /// What one run printed and how it ended.
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String

        var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        /// For failed expectations: everything the run said.
        var diagnostics: Comment { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
    }

    /// `sca` next to the test bundle (`.build/<triple>/debug/sca`), or nil when it was not built.
    static let binary: URL? = {
        var directories: [URL] = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        // On Apple platforms the tests load as an .xctest bundle inside the build directory.
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for directory in directories {
            let candidate = directory.appendingPathComponent("sca")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        return nil
    }()

    /// Runs `sca <arguments> --home <home>` with `input` on standard input. The child gets its own
    /// HOME and no SCA_SERVER, so nothing outside `home` is read or written.
    /// - Parameter locale: the child's `LC_ALL`, `LC_MESSAGES` and `LANG`, which pick the language
    ///   it speaks. None by default, so it speaks English whatever the machine running the
    ///   tests is set to.
    static func run(
        _ arguments: [String], input: String = "", home: URL, locale: [String: String] = [:], timeout: Duration = .seconds(60)
    ) async throws -> Result {
        guard let binary else { throw CocoaError(.fileNoSuchFile) }
        return try await run(
            executable: binary, arguments: arguments + ["--home", home.path], input: input,
            environment: appEnvironment(home: home, locale: locale), timeout: timeout)
    }

    /// This process's environment as `sca` gets it: its own HOME, no SCA_SERVER, and only the
    /// locale variables given.
    static func appEnvironment(home: URL, locale: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SCA_SERVER"] = nil
        environment["HOME"] = home.path
        for variable in ["LC_ALL", "LC_MESSAGES", "LANG"] { environment[variable] = locale[variable] }
        return environment
    }

    /// Runs any of our executables with `input` on standard input and its output in files, killed
    /// after `timeout` so a hung child fails its test rather than the whole run.
    static func run(
        executable: URL, arguments: [String], input: String = "", environment: [String: String],
        timeout: Duration
    ) async throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sca-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inputFile = scratch.appendingPathComponent("stdin")
        let outputFile = scratch.appendingPathComponent("stdout")
        let errorFile = scratch.appendingPathComponent("stderr")
        try Data(input.utf8).write(to: inputFile)
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)

        let standardInput = try FileHandle(forReadingFrom: inputFile)
        let standardOutput = try FileHandle(forWritingTo: outputFile)
        let standardError = try FileHandle(forWritingTo: errorFile)
        defer {
            try? standardInput.close()
            try? standardOutput.close()
            try? standardError.close()
        }
        let process = try ChildProcess(
            executable, arguments: arguments, environment: environment, standardInput: .file(standardInput),
            standardOutput: .file(standardOutput), standardError: .file(standardError), killAfter: timeout)
        let status = await process.status()
        return Result(
            status: status,
            stdout: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self))
    }

    /// A fresh, private home directory for one test.
    static func temporaryHome() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("sca-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
    }
}
