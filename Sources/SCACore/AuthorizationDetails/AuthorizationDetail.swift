import Foundation

/// One entry of `authorization_details` (RFC 9396): what a partner asks the user to approve,
/// described in the authorization request itself rather than by a scope. This server knows two
/// types, and a request carries exactly one entry, so that every token it earns is bound to one
/// payment or to one account access.
///
/// Values of this type are always checked (``AuthorizationDetailsRules``): they are what the
/// user was shown, in the normalised form the proofs are bound to.
public enum AuthorizationDetail: Sendable, Equatable {
    /// A payment: amount, creditor and remittance information. Its proofs are bound to it the
    /// way a payment challenge's are bound to its transaction (dynamic linking).
    case paymentInitiation(PaymentInitiation)
    /// Read access to named accounts, until a date.
    case accountInformation(AccountInformation)

    /// The `type` member.
    public var type: String {
        switch self {
        case .paymentInitiation: PaymentInitiation.type
        case .accountInformation: AccountInformation.type
        }
    }

    /// What the user approves with SCA: a payment, or account information.
    public var operation: OperationKind {
        switch self {
        case .paymentInitiation: .payment
        case .accountInformation: .accountInfo
        }
    }

    /// The payment as a transaction, whose digest the proofs and the token carry.
    public var transaction: Transaction? {
        if case .paymentInitiation(let payment) = self { return payment.transaction }
        return nil
    }

    /// Every type this server knows, for discovery and registration.
    public static let knownTypes = [PaymentInitiation.type, AccountInformation.type]
}

extension AuthorizationDetail: Codable {
    private enum TypeKey: String, CodingKey { case type }

    /// Decodes a stored entry (a sealed request, a challenge, a token): the checks ran when it
    /// came in, so this only reads.
    public init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
        switch type {
        case PaymentInitiation.type: self = .paymentInitiation(try PaymentInitiation(from: decoder))
        case AccountInformation.type: self = .accountInformation(try AccountInformation(from: decoder))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown type \(type)"))
        }
    }

    /// The RFC 9396 form, `type` included.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .paymentInitiation(let payment): try payment.encode(to: encoder)
        case .accountInformation(let access): try access.encode(to: encoder)
        }
    }
}
