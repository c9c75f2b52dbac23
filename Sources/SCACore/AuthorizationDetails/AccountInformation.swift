import Foundation

/// The `account_information` entry of `authorization_details`: which accounts, what of them
/// (`balances`, `transactions`), and until when. The RTS (art. 10) let account information go
/// without a new SCA for at most 180 days, so `validUntil` is at most that far ahead, and no
/// token of the grant outlives it.
public struct AccountInformation: Sendable, Equatable {
    public static let type = "account_information"
    /// What may be read of the accounts.
    static let knownAccess: Set<String> = ["balances", "transactions"]
    /// The longest access one SCA grants.
    public static let longestValidity: TimeInterval = 180 * 86_400

    /// The accounts, as normalised IBANs.
    public var accounts: [String]
    /// What may be read, in the order asked.
    public var access: [String]
    /// The end of the access, RFC 3339 UTC (`2027-05-01T00:00:00Z`).
    public var validUntil: String
    public var locations: [String]?

    public init(accounts: [String], access: [String], validUntil: String, locations: [String]? = nil) {
        self.accounts = accounts
        self.access = access
        self.validUntil = validUntil
        self.locations = locations
    }

    /// ``validUntil`` as a date; nil if it is not RFC 3339.
    public var expiry: Date? {
        ISO8601DateFormatter().date(from: validUntil)
    }
}

extension AccountInformation: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, accounts, access, validUntil, locations
    }

    private struct Account: Codable {
        var iban: String
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accounts = try container.decode([Account].self, forKey: .accounts).map(\.iban)
        access = try container.decode([String].self, forKey: .access)
        validUntil = try container.decode(String.self, forKey: .validUntil)
        locations = try container.decodeIfPresent([String].self, forKey: .locations)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.type, forKey: .type)
        try container.encode(accounts.map(Account.init(iban:)), forKey: .accounts)
        try container.encode(access, forKey: .access)
        try container.encode(validUntil, forKey: .validUntil)
        try container.encodeIfPresent(locations, forKey: .locations)
    }
}
