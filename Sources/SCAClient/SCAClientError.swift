import SCACore

/// Why an SDK call did not succeed. Every case names what the app should tell the user or do
/// next; `problemCode` carries the server's stable code where there is one.
public enum SCAClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A problem answer the SDK does not handle itself (description: `code: detail`).
    case server(Problem)
    /// The user cancelled; the challenge was cancelled on the server too.
    case cancelled
    /// The user did not confirm the payment; the challenge was cancelled on the server.
    case transactionDeclined
    /// Every method the challenge offers for the missing categories is unusable here.
    case noUsableMethod(missingCategories: Int)
    /// This device has no binding (for this server): activate it with a code first.
    case deviceNotActivated
    /// The server refuses the bound device: `device.blocked`, `device.removed` or `device.not_found`.
    case deviceRefused(ProblemCode)
    /// Too many failed attempts (`423 user.locked`); `retryAfter` is nil for a permanent block.
    case locked(retryAfter: Int?)
    /// No session is stored, or the server ended it.
    case notSignedIn
    /// The server answered something that is neither the expected body nor a problem document.
    case unexpectedResponse(status: Int)

    /// The codes that mean the server will not accept this device's signatures.
    static let deviceRefusals: Set<ProblemCode> = [.deviceBlocked, .deviceRemoved, .deviceNotFound]

    /// The error for a problem answer: the cases an app handles differently get their own case,
    /// everything else stays a `.server` problem.
    init(_ problem: Problem) {
        if problem.code == .userLocked {
            self = .locked(retryAfter: problem.retryAfter)
        } else if Self.deviceRefusals.contains(problem.code) {
            self = .deviceRefused(problem.code)
        } else {
            self = .server(problem)
        }
    }

    /// One line for the user, with the problem code where there is one.
    public var description: String {
        switch self {
        case .server(let problem):
            return problem.description
        case .cancelled:
            return "cancelled: the authentication was cancelled"
        case .transactionDeclined:
            return "declined: the payment was not confirmed"
        case .noUsableMethod(let missing):
            let categories = missing == 1 ? "1 more category is" : "\(missing) more categories are"
            return "no usable method: \(categories) needed and none of the offered methods can be used here"
        case .deviceNotActivated:
            return "device not activated: activate this device with an activation code first"
        case .deviceRefused(let code):
            switch code {
            case .deviceRemoved:
                return "\(code): this device was removed; activate it again with a new activation code"
            case .deviceBlocked:
                return "\(code): this device is blocked after too many wrong signatures; ask for it to be unblocked"
            case .deviceNotFound:
                return "\(code): the server does not know this device; activate it again"
            default:
                return "\(code): the server refuses this device"
            }
        case .locked(let retryAfter?):
            return "\(ProblemCode.userLocked): too many failed attempts; try again in \(retryAfter) s"
        case .locked(nil):
            return "\(ProblemCode.userLocked): too many failed attempts; the account is blocked until an operator unblocks it"
        case .notSignedIn:
            return "not signed in: log in first"
        case .unexpectedResponse(let status):
            return "unexpected response from the server (HTTP \(status))"
        }
    }

    /// The server's problem code behind this error, if any.
    public var problemCode: ProblemCode? {
        switch self {
        case .server(let problem): problem.code
        case .deviceRefused(let code): code
        case .locked: .userLocked
        case .cancelled, .transactionDeclined, .noUsableMethod, .deviceNotActivated, .notSignedIn, .unexpectedResponse: nil
        }
    }
}
