import SCACore

/// What the user wants to do (phase 1): the operation a challenge is opened for, with the
/// transaction when it is a payment.
public enum Purpose: Sendable, Equatable {
    /// Signing in: the tokens open a session (with a refresh token).
    case login
    /// A payment of exactly this amount to exactly this payee: every proof is bound to it.
    case payment(Transaction)
    /// Changing a password, PIN, phone or e-mail: the token is good for one change.
    case settingsChange
    /// Reading account information: the tokens open a session.
    case accountInfo
    /// Binding a new device remotely (RTS art. 24).
    case deviceActivation

    /// The operation the challenge (and its token) is scoped to.
    public var operation: OperationKind {
        switch self {
        case .login: .login
        case .payment: .payment
        case .settingsChange: .settingsChange
        case .accountInfo: .accountInfo
        case .deviceActivation: .deviceActivation
        }
    }

    /// The transaction a payment binds; nil for every other purpose.
    var transaction: Transaction? {
        if case .payment(let transaction) = self { return transaction }
        return nil
    }
}
