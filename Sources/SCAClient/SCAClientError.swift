import SCACore

/// Why an SDK call did not succeed. Its ``code`` names what the app should tell the user or do
/// next; ``problemCode`` carries the server's stable code where there is one.
///
/// A struct rather than an enum, so that a new reason is a new ``Code`` and not a new case that
/// breaks every app's exhaustive `switch`: compare ``code`` (`error.code == .notSignedIn`) and
/// read the properties that code fills in.
public struct SCAClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. Codes may be added; none is removed or renamed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as spelled in Swift; stable, for logs and metrics.
        public let description: String

        private init(_ name: String) {
            description = name
        }

        /// A problem answer the SDK does not handle itself: ``SCAClientError/problem`` holds it.
        public static let server = Code("server")
        /// The user cancelled; the challenge was cancelled on the server too.
        public static let cancelled = Code("cancelled")
        /// The user did not confirm the payment; the challenge was cancelled on the server.
        public static let transactionDeclined = Code("transactionDeclined")
        /// Every method the challenge offers for the missing categories is unusable here:
        /// ``SCAClientError/missingCategories`` says how many categories are still needed.
        public static let noUsableMethod = Code("noUsableMethod")
        /// This device has no binding (for this server): activate it with a code first.
        public static let deviceNotActivated = Code("deviceNotActivated")
        /// The server refuses the bound device: ``SCAClientError/problemCode`` is
        /// `device.blocked`, `device.removed` or `device.not_found`.
        public static let deviceRefused = Code("deviceRefused")
        /// Too many failed attempts (`423 user.locked`): ``SCAClientError/retryAfter`` is the wait,
        /// nil for a permanent block.
        public static let locked = Code("locked")
        /// No session is stored, or the server ended it.
        public static let notSignedIn = Code("notSignedIn")
        /// The server answered something that is neither the expected body nor a problem document:
        /// ``SCAClientError/status`` is its HTTP status.
        public static let unexpectedResponse = Code("unexpectedResponse")
    }

    /// The failure with its facts: the old enum's shape, kept private so that it can grow.
    private enum Reason: Sendable, Equatable {
        case server(Problem)
        case cancelled
        case transactionDeclined
        case noUsableMethod(missingCategories: Int)
        case deviceNotActivated
        case deviceRefused(ProblemCode)
        case locked(retryAfter: Int?)
        case notSignedIn
        case unexpectedResponse(status: Int)
    }

    private let reason: Reason

    private init(_ reason: Reason) {
        self.reason = reason
    }

    /// What kind of failure this is.
    public var code: Code {
        switch reason {
        case .server: .server
        case .cancelled: .cancelled
        case .transactionDeclined: .transactionDeclined
        case .noUsableMethod: .noUsableMethod
        case .deviceNotActivated: .deviceNotActivated
        case .deviceRefused: .deviceRefused
        case .locked: .locked
        case .notSignedIn: .notSignedIn
        case .unexpectedResponse: .unexpectedResponse
        }
    }

    /// The server's problem document, for ``Code/server``; nil for every other code.
    public var problem: Problem? {
        if case .server(let problem) = reason { return problem }
        return nil
    }

    /// The server's problem code behind this error, if any: the problem's code for
    /// ``Code/server``, the refusal for ``Code/deviceRefused``, `user.locked` for ``Code/locked``.
    public var problemCode: ProblemCode? {
        switch reason {
        case .server(let problem): problem.code
        case .deviceRefused(let code): code
        case .locked: .userLocked
        case .cancelled, .transactionDeclined, .noUsableMethod, .deviceNotActivated, .notSignedIn, .unexpectedResponse: nil
        }
    }

    /// Seconds until the user may try again, for ``Code/locked``; nil for a permanent block and for
    /// every other code.
    public var retryAfter: Int? {
        if case .locked(let retryAfter) = reason { return retryAfter }
        return nil
    }

    /// How many more authentication categories were needed, for ``Code/noUsableMethod``; nil for
    /// every other code.
    public var missingCategories: Int? {
        if case .noUsableMethod(let missing) = reason { return missing }
        return nil
    }

    /// The HTTP status of the answer the SDK could not read, for ``Code/unexpectedResponse``; nil
    /// for every other code (a problem carries its own status).
    public var status: Int? {
        if case .unexpectedResponse(let status) = reason { return status }
        return nil
    }

    /// A problem answer the SDK does not handle itself (description: `code: detail`).
    public static func server(_ problem: Problem) -> SCAClientError {
        SCAClientError(.server(problem))
    }

    /// The user cancelled; the challenge was cancelled on the server too.
    public static let cancelled = SCAClientError(.cancelled)

    /// The user did not confirm the payment; the challenge was cancelled on the server.
    public static let transactionDeclined = SCAClientError(.transactionDeclined)

    /// Every method the challenge offers for the missing categories is unusable here.
    public static func noUsableMethod(missingCategories: Int) -> SCAClientError {
        SCAClientError(.noUsableMethod(missingCategories: missingCategories))
    }

    /// This device has no binding (for this server): activate it with a code first.
    public static let deviceNotActivated = SCAClientError(.deviceNotActivated)

    /// The server refuses the bound device: `device.blocked`, `device.removed` or `device.not_found`.
    public static func deviceRefused(_ code: ProblemCode) -> SCAClientError {
        SCAClientError(.deviceRefused(code))
    }

    /// Too many failed attempts (`423 user.locked`); `retryAfter` is nil for a permanent block.
    public static func locked(retryAfter: Int?) -> SCAClientError {
        SCAClientError(.locked(retryAfter: retryAfter))
    }

    /// No session is stored, or the server ended it.
    public static let notSignedIn = SCAClientError(.notSignedIn)

    /// The server answered something that is neither the expected body nor a problem document.
    public static func unexpectedResponse(status: Int) -> SCAClientError {
        SCAClientError(.unexpectedResponse(status: status))
    }

    /// The codes that mean the server will not accept this device's signatures.
    static let deviceRefusals: Set<ProblemCode> = [.deviceBlocked, .deviceRemoved, .deviceNotFound]

    /// The error for a problem answer: the codes an app handles differently get their own
    /// ``Code``, everything else stays a ``Code/server`` problem.
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
        switch reason {
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
}
