/// Why an operation went without strong customer authentication: the RTS exemption applied
/// (Commission Delegated Regulation (EU) 2018/389). Carried as the `exemption` claim of the
/// token and in the challenge's answer; stable wire names.
public enum Exemption: String, Codable, Sendable, CaseIterable {
    /// Art. 16: a low-value remote payment within the counters since the last SCA.
    case lowValue = "low_value"
    /// Art. 13: a payment to a payee on the user's trusted list.
    case trustedBeneficiary = "trusted_beneficiary"
    /// Art. 14: a later payment of a series with the same amount and payee.
    case recurring
    /// Art. 18: transaction risk analysis, under the band the fraud rate allows.
    case tra
    /// Art. 10: account information within 180 days of the last SCA for it.
    case accountInfo180d = "account_info_180d"

    /// The `acr` of a token issued under an exemption (no SCA was performed).
    public static let exemptACR = "psd2.exempt"

    /// The words a user reads: "no confirmation needed (low-value payment)".
    public var displayReason: String {
        switch self {
        case .lowValue: "low-value payment"
        case .trustedBeneficiary: "trusted beneficiary"
        case .recurring: "recurring payment"
        case .tra: "low-risk payment"
        case .accountInfo180d: "recent strong authentication for account information"
        }
    }
}
