import ArgumentParser
import Foundation
import SCAClient
import SCACore

/// How a failure is told to the user: one line `<code>: <detail>` and an exit status. nil for
/// the parser's own errors (usage, help, explicit exit codes), which it prints itself.
struct FailureLine {
    var text: String
    var exitCode: Int32

    init?(_ error: any Error) {
        switch error {
        case is ExitCode, is CleanExit, is ValidationError:
            return nil
        case let error as SCAClientError where error.code == .notSignedIn:
            // The SDK's hint names no command; the app knows which one.
            text = "not signed in: run 'sca login' first"
            exitCode = 1
        case let error as SCAClientError where error.code == .deviceNotActivated:
            text = "device not activated: run 'sca activate CODE' with a code from the bank first"
            exitCode = 1
        case let error as SCAClientError:
            text = Self.withCode(error.description, error.problemCode?.rawValue)
            // Distinct statuses let scripts tell "you typed it wrong" from "it did not run".
            exitCode = error.code == .cancelled || error.code == .transactionDeclined ? 2 : 1
        case let error as AppError:
            text = "\(error.code): \(error.detail)"
            exitCode = 1
        case let error as ProtectedFile.IOError:
            // A seed or profile file the app could not write.
            text = "app.file: could not \(error)"
            exitCode = 1
        case let problem as Problem:
            text = problem.description
            exitCode = 1
        case let error as URLError:
            text = "server.unreachable: \(error.localizedDescription)"
            exitCode = 1
        case _ where String(reflecting: type(of: error)).hasPrefix("ArgumentParser."):
            // The parser's own signals (help, usage) can surface from `run()` too; it prints them.
            return nil
        default:
            // Anything else (a file the app could not write, …) still gets the one-line shape.
            text = "app.failed: \(error.localizedDescription)"
            exitCode = 1
        }
    }

    /// The SDK's description already names the problem code where there is one; add it only
    /// when it is missing, so the line always starts with a machine-readable code.
    private static func withCode(_ description: String, _ code: String?) -> String {
        guard let code, !description.hasPrefix(code) else { return description }
        return "\(code): \(description)"
    }
}
