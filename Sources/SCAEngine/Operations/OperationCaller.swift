/// Who asks for or reads an operation: a backend with an admin credential (scope
/// `operations:write` / `operations:read`), or a partner client with its own credentials.
package enum OperationCaller: Sendable, Equatable {
    case admin
    /// A partner may create operations only for users who signed in to it, and sees only its own.
    case partner(clientID: String)

    var clientID: String? {
        if case .partner(let clientID) = self { return clientID }
        return nil
    }
}
