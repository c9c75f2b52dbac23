/// What a consent approves.
public enum ConsentOperationKind: String, Codable, Sendable, CaseIterable {
    /// A payment: amount and payee (`transaction`), bound into the proofs (dynamic linking).
    case payment
    /// Adding a beneficiary: name and IBAN.
    case beneficiaryAdd = "beneficiary_add"
    /// A settings change, described in a short sentence.
    case settingsChange = "settings_change"

    /// The operation the consent's challenge and token are scoped to: a beneficiary's addition
    /// is its own operation, bound to the payee as a payment is to its transaction, never a
    /// general settings change.
    public var operation: OperationKind {
        switch self {
        case .payment: .payment
        case .beneficiaryAdd: .beneficiaryAdd
        case .settingsChange: .settingsChange
        }
    }
}
