import Foundation

/// The `payment_initiation` entry of `authorization_details`, in the members the open banking
/// standards and RFC 9396's own example use: `instructedAmount` (`amount`, `currency`),
/// `creditorName`, `creditorAccount.iban`, `remittanceInformationUnstructured`, and optional
/// `actions` and `locations`.
public struct PaymentInitiation: Sendable, Equatable {
    public static let type = "payment_initiation"
    /// The actions a partner may name; `initiate` is what the user approves.
    static let knownActions: Set<String> = ["initiate", "status", "cancel"]

    /// The payment as the user sees it: amount, currency, creditor and remittance information.
    public var transaction: Transaction
    public var actions: [String]?
    /// The resource servers the token is for, as the partner named them.
    public var locations: [String]?

    public init(transaction: Transaction, actions: [String]? = nil, locations: [String]? = nil) {
        self.transaction = transaction
        self.actions = actions
        self.locations = locations
    }
}

extension PaymentInitiation: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, actions, locations, instructedAmount, creditorName, creditorAccount, remittanceInformationUnstructured
    }

    private struct Amount: Codable {
        var amount: String
        var currency: String
    }

    private struct Account: Codable {
        var iban: String
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let amount = try container.decode(Amount.self, forKey: .instructedAmount)
        transaction = Transaction(
            amount: amount.amount, currency: amount.currency,
            payee: Transaction.Payee(
                name: try container.decode(String.self, forKey: .creditorName),
                iban: try container.decodeIfPresent(Account.self, forKey: .creditorAccount)?.iban),
            reference: try container.decodeIfPresent(String.self, forKey: .remittanceInformationUnstructured))
        actions = try container.decodeIfPresent([String].self, forKey: .actions)
        locations = try container.decodeIfPresent([String].self, forKey: .locations)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.type, forKey: .type)
        try container.encodeIfPresent(actions, forKey: .actions)
        try container.encodeIfPresent(locations, forKey: .locations)
        try container.encode(Amount(amount: transaction.amount, currency: transaction.currency), forKey: .instructedAmount)
        try container.encode(transaction.payee.name, forKey: .creditorName)
        try container.encodeIfPresent(transaction.payee.iban.map(Account.init(iban:)), forKey: .creditorAccount)
        try container.encodeIfPresent(transaction.reference, forKey: .remittanceInformationUnstructured)
    }
}
