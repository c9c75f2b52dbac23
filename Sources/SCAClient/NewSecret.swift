import SCACore

/// The second element a new user sets after signing up: a password or a PIN,
/// knowledge, the category the mailbox that created the account lacks.
public struct NewSecret: Sendable, Equatable {
    /// `.password` or `.pin`.
    public var method: AuthenticationMethod
    public var value: String

    public init(method: AuthenticationMethod, value: String) {
        self.method = method
        self.value = value
    }

    /// The enrolment request that sets it.
    var request: EnrolmentRequest {
        method == .pin ? EnrolmentRequest(pin: value) : EnrolmentRequest(password: value)
    }
}
