import SCAEngine
/// The answer of `POST /consents/{id}/phone/status`.
struct PhoneApprovalStatus: Codable, Sendable, Equatable {
    /// The operation's status (`pending`, `approved`, `rejected`, `expired`, `failed`,
    /// `canceled`), or `closed` when the consent itself is no longer open.
    var status: String
    /// Where the page goes once it is not `pending`: the waiting page, which shows the outcome.
    var next: String
}
