/// Which consent statuses are announced to the partner's webhook.
extension ConsentStatus {
    /// The user's decision is known or the consent is over: `Accepted` (the operation's token
    /// is ready), and every final status (`CustomerRefused`, `CredentialRefused`, `Expired`,
    /// `Canceled`, `Failed`). `Started` and `OperationCommitting` are steps, not outcomes.
    package var isAnnounced: Bool { self == .accepted || isFinal }
}
