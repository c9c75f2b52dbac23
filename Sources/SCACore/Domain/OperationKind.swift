/// What the user wants to do. A token is scoped to exactly one operation.
public enum OperationKind: String, Codable, Sendable, CaseIterable {
    case login
    case payment
    case settingsChange = "settings_change"
    case accountInfo = "account_info"
    case deviceActivation = "device_activation"
    /// Adding a payee to the user's trusted beneficiaries (RTS art. 13): needs SCA, bound to
    /// the payee.
    case beneficiaryAdd = "beneficiary_add"
    /// Adding a second element after a sign-up. Never a challenge's operation: only
    /// the token a sign-up answers with carries it (`acr` `single-factor`), and that token is
    /// refused by every route but `POST /v1/me/enrolment`.
    case enrolment
    /// Setting a new password after forgetting it: proven with elements other than knowledge
    /// only. Its token is taken by `POST /v1/password-reset` alone, which decides from the
    /// token's `amr` whether the reset is complete or leaves the account restricted.
    case passwordReset = "password_reset"

    /// The operations a challenge may be opened for: all but `enrolment`.
    public static var challengeable: [OperationKind] { allCases.filter { $0 != .enrolment } }

    /// Whether a transaction (amount and payee) must be bound into the proofs.
    public var requiresTransaction: Bool { self == .payment }
}
