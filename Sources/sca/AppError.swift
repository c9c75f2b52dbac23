/// A failure of the app itself (not of the server or the SDK), in the same `code: detail`
/// shape as the server's problems so that scripts read every error line alike.
struct AppError: Error, CustomStringConvertible {
    var code: String
    var detail: String

    init(_ code: String, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    var description: String { "\(code): \(detail)" }

    /// What standard input ended before, each said in a whole sentence of its own.
    enum Awaited: String {
        case answer, factor, password, pin, code, email, newPassword
    }

    static func inputClosed(_ awaited: Awaited) -> AppError {
        AppError("input.closed", Terminal.words.text("terminal.failure.inputClosed.\(awaited.rawValue)"))
    }
}
