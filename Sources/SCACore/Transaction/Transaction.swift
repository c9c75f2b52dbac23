import Crypto
import Foundation

/// A payment as the user sees and approves it. Its canonical form (RFC 8785) and digest bind
/// every proof and token of a payment challenge to exactly this amount and payee.
public struct Transaction: Codable, Sendable, Equatable {
    /// Decimal string with the currency's minor units, e.g. `"125.00"`.
    public var amount: String
    /// ISO 4217 alphabetic code, e.g. `"EUR"`.
    public var currency: String
    public var payee: Payee
    /// Optional remittance reference; bound into the digest when present.
    public var reference: String?

    public init(amount: String, currency: String, payee: Payee, reference: String? = nil) {
        self.amount = amount
        self.currency = currency
        self.payee = payee
        self.reference = reference
    }

    /// The one who is paid.
    public struct Payee: Codable, Sendable, Equatable {
        public var name: String
        public var iban: String?

        public init(name: String, iban: String? = nil) {
            self.name = name
            self.iban = iban
        }
    }

    /// The RFC 8785 (JCS) bytes of the transaction.
    public var canonicalBytes: [UInt8] {
        var payeeObject: [String: JSONValue] = ["name": .string(payee.name)]
        if let iban = payee.iban { payeeObject["iban"] = .string(iban) }
        var object: [String: JSONValue] = [
            "amount": .string(amount),
            "currency": .string(currency),
            "payee": .object(payeeObject),
        ]
        if let reference { object["reference"] = .string(reference) }
        return JCS.canonicalize(.object(object))
    }

    /// `base64url(SHA-256(canonical bytes))`, the value carried as `txn` in tokens.
    public var digest: String {
        Base64URL.encode(Array(SHA256.hash(data: canonicalBytes)))
    }
}
