/// The kind of remote payment, for the fraud rates and TRA bands of RTS art. 18 and 19, which
/// are kept per type.
public enum PaymentType: String, Codable, Sendable, CaseIterable {
    /// A remote electronic credit transfer (the default).
    case creditTransfer = "credit_transfer"
    /// A remote card-based payment (card not present).
    case card
}
