/// What the user wants to do. A token is scoped to exactly one operation.
public enum OperationKind: String, Codable, Sendable, CaseIterable {
    case login
    case payment
    case settingsChange = "settings_change"
    case accountInfo = "account_info"
    case deviceActivation = "device_activation"
    /// Adding a payee to the user's trusted beneficiaries (RTS art. 13): needs SCA, bound to
    /// the payee (issue 12).
    case beneficiaryAdd = "beneficiary_add"

    /// Whether a transaction (amount and payee) must be bound into the proofs.
    public var requiresTransaction: Bool { self == .payment }
}
