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

    static func inputClosed(_ what: String) -> AppError {
        AppError("input.closed", "standard input ended before \(what) (pass it as a flag in scripts)")
    }
}
