/// Why the user refused an operation on the phone.
public enum OperationRejectReason: String, Codable, Sendable, CaseIterable {
    /// "I did not start this": recorded in the audit trail as a fraud signal.
    case notMe = "not_me"
    /// The amount or payee is not what the user meant.
    case wrongAmount = "wrong_amount"
    case other
}
