/// An RFC 9457 problem document, as every error of the API is rendered.
public struct Problem: Codable, Sendable, Equatable, Error, CustomStringConvertible {
    public var type: String
    public var title: String
    public var status: Int
    public var code: ProblemCode
    public var detail: String?
    /// Failed attempts left before the user (or device) is blocked, where that applies.
    public var remainingAttempts: Int?
    /// Seconds to wait before trying again, mirrored in the `Retry-After` header.
    public var retryAfter: Int?

    public init(
        status: Int, code: ProblemCode, title: String, detail: String? = nil,
        remainingAttempts: Int? = nil, retryAfter: Int? = nil
    ) {
        self.type = "urn:sca:problem:\(code.rawValue)"
        self.title = title
        self.status = status
        self.code = code
        self.detail = detail
        self.remainingAttempts = remainingAttempts
        self.retryAfter = retryAfter
    }

    /// `code: detail` (or the title), as a one-line error message.
    public var description: String { "\(code.rawValue): \(detail ?? title)" }

    /// Two problems are the same problem when their codes are: the code is the stable contract
    /// (it fixes `type`, and each code has one status), while the title, the detail and the
    /// hints (`remainingAttempts`, `retryAfter`) are wording and facts of one occurrence. So a
    /// `.server(problem)` error compares as the problem it reports, not as its prose; a caller
    /// that cares about a hint reads it.
    public static func == (lhs: Problem, rhs: Problem) -> Bool {
        lhs.code == rhs.code
    }
}
