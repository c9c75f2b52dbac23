import ArgumentParser
import Foundation
import SCAClient
import SCACore

/// How a failure is told to the user: one line `<code>: <detail>` and an exit status. nil for
/// the parser's own errors (usage, help, explicit exit codes), which it prints itself.
///
/// The detail is in the user's language; a code (`request.invalid`, `user.locked`) is a name
/// scripts match, so it stays as it is in every language, and so does the exit status.
struct FailureLine {
    var text: String
    var exitCode: Int32

    init?(_ error: any Error) {
        switch error {
        case is ExitCode, is CleanExit, is ValidationError:
            return nil
        case let error as SCAClientError:
            text = Self.text(of: error)
            // Distinct statuses let scripts tell "you typed it wrong" from "it did not run".
            exitCode = error.code == .cancelled || error.code == .transactionDeclined ? 2 : 1
        case let error as AppError:
            text = "\(error.code): \(error.detail)"
            exitCode = 1
        case let error as ProtectedFile.IOError:
            // A seed or profile file the app could not write.
            text = "app.file: " + Terminal.words.text("terminal.failure.file", ["detail": error.description])
            exitCode = 1
        case let problem as Problem:
            text = problem.description
            exitCode = 1
        case let error as URLError:
            text = "server.unreachable: " + Terminal.words.text("terminal.failure.unreachable", ["reason": error.localizedDescription])
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

    /// An SDK failure in the user's language. The SDK's own descriptions are English; the app
    /// says in its words what the SDK decided, and what to do next where the app knows the
    /// command. A server's problem is told as the server put it, after its code.
    static func text(of error: SCAClientError) -> String {
        let words = Terminal.words
        let code = error.problemCode.map { "\($0.rawValue): " } ?? ""
        switch error.code {
        case .notSignedIn:
            // The SDK's hint names no command; the app knows which one.
            return words.text("terminal.failure.notSignedIn")
        case .deviceNotActivated:
            return words.text("terminal.failure.notActivated")
        case .cancelled:
            return words.text("terminal.failure.cancelled")
        case .transactionDeclined:
            return words.text("terminal.failure.declined")
        case .noUsableMethod:
            return words.text("terminal.failure.noUsableMethod", count: error.missingCategories ?? 1)
        case .deviceRefused:
            switch error.problemCode {
            case .deviceRemoved?: return code + words.text("terminal.failure.deviceRemoved")
            case .deviceBlocked?: return code + words.text("terminal.failure.deviceBlocked")
            case .deviceNotFound?: return code + words.text("terminal.failure.deviceNotFound")
            default: return code + words.text("terminal.failure.deviceRefused")
            }
        case .locked:
            if let wait = error.retryAfter {
                return code + words.text("terminal.failure.lockedFor", ["seconds": String(wait)])
            }
            return code + words.text("terminal.failure.lockedPermanently")
        case .unexpectedResponse:
            return words.text("terminal.failure.unexpectedResponse", ["status": error.status.map(String.init) ?? "?"])
        default:
            return withCode(error.description, error.problemCode?.rawValue)
        }
    }

    /// The SDK's description already names the problem code where there is one; add it only
    /// when it is missing, so the line always starts with a machine-readable code.
    private static func withCode(_ description: String, _ code: String?) -> String {
        guard let code, !description.hasPrefix(code) else { return description }
        return "\(code): \(description)"
    }
}
