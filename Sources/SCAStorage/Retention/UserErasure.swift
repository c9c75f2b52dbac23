/// What erasing a user removed (``SCAStore/eraseUser(id:stateKeys:)``).
public struct UserErasure: Sendable, Equatable {
    /// Devices, passkeys, sessions, challenges, consents, operations, grants and the rest,
    /// deleted.
    public var rowsDeleted: Int
    /// Payments kept for the fraud-rate figures without anything that names the payer.
    public var paymentsPseudonymised: Int
    /// Audit entries whose personal facts were cleared (their digest stays in the chain).
    public var auditEntriesErased: Int
    /// Audit entries written before facts were sealed: their address is in the chain, so they
    /// keep it until the retention cut archives them.
    public var auditEntriesUnsealed: Int

    public init(rowsDeleted: Int, paymentsPseudonymised: Int, auditEntriesErased: Int, auditEntriesUnsealed: Int) {
        self.rowsDeleted = rowsDeleted
        self.paymentsPseudonymised = paymentsPseudonymised
        self.auditEntriesErased = auditEntriesErased
        self.auditEntriesUnsealed = auditEntriesUnsealed
    }
}
