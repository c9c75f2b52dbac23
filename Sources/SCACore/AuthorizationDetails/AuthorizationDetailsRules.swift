import Foundation

/// Checks the `authorization_details` parameter a partner sends (RFC 9396 §2) and returns the
/// one entry in the form the user is shown and the proofs bind. Stricter than the RFC, on
/// purpose: exactly one entry, only members this server knows (an unknown one could carry a
/// condition the user never saw), and a payment always names its creditor's IBAN.
package enum AuthorizationDetailsRules {
    /// Why a parameter was refused, for the `invalid_authorization_details` error.
    package struct Violation: Error, Sendable, Equatable {
        package var reason: String

        init(_ reason: String) {
            self.reason = reason
        }
    }

    /// The longest parameter read. One payment or one account access fits in far less, and the
    /// entry travels sealed in the sign-in page's cookie, which browsers cap at 4 KB.
    static let maxLength = 2_048

    /// The entry `text` asks for.
    /// - Parameters:
    ///   - allowedTypes: the types the client is registered for.
    ///   - now: for `account_information`'s `validUntil`.
    package static func parse(_ text: String, allowedTypes: [String], now: Date) -> Result<AuthorizationDetail, Violation> {
        Result {
            guard text.utf8.count <= maxLength else { throw Violation("authorization_details is longer than \(maxLength) bytes") }
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), case .array(let entries) = value else {
                throw Violation("authorization_details must be a JSON array")
            }
            guard entries.count == 1, case .object(let entry) = entries[0] else {
                throw Violation("authorization_details must hold exactly one object: one payment or one account access")
            }
            guard case .string(let type)? = entry["type"] else { throw Violation("the entry needs a type") }
            guard AuthorizationDetail.knownTypes.contains(type) else { throw Violation("type \(type) is not supported") }
            guard allowedTypes.contains(type) else { throw Violation("this client may not ask for \(type)") }
            switch type {
            case PaymentInitiation.type: return .paymentInitiation(try payment(entry))
            default: return .accountInformation(try accountAccess(entry, now: now))
            }
        }.mapError { $0 as? Violation ?? Violation("authorization_details could not be read") }
    }

    private static func payment(_ entry: [String: JSONValue]) throws -> PaymentInitiation {
        try onlyMembers(
            entry, ["type", "actions", "locations", "instructedAmount", "creditorName", "creditorAccount", "remittanceInformationUnstructured"],
            of: "payment_initiation")
        guard case .object(let instructed)? = entry["instructedAmount"] else {
            throw Violation("payment_initiation needs instructedAmount with amount and currency")
        }
        try onlyMembers(instructed, ["amount", "currency"], of: "instructedAmount")
        guard case .string(let amount)? = instructed["amount"], case .string(let currency)? = instructed["currency"] else {
            throw Violation("instructedAmount.amount and instructedAmount.currency must be strings")
        }
        guard case .string(let name)? = entry["creditorName"] else { throw Violation("payment_initiation needs creditorName") }
        guard case .object(let account)? = entry["creditorAccount"] else {
            throw Violation("payment_initiation needs creditorAccount with the creditor's iban")
        }
        try onlyMembers(account, ["iban"], of: "creditorAccount")
        guard case .string(let iban)? = account["iban"] else { throw Violation("creditorAccount.iban must be a string") }
        var reference: String?
        if let remittance = entry["remittanceInformationUnstructured"] {
            guard case .string(let text) = remittance else { throw Violation("remittanceInformationUnstructured must be a string") }
            reference = text
        }
        let asked = Transaction(amount: amount, currency: currency, payee: .init(name: name, iban: iban), reference: reference)
        // The rules every payment here follows: currency, minor units, IBAN checksum, plain text.
        let transaction: Transaction
        switch TransactionRules.normalized(asked) {
        case .success(let normalized): transaction = normalized
        case .failure(let violation):
            throw Violation(
                "payment_initiation: "
                    + violation.reason.replacingOccurrences(of: "payee.name", with: "creditorName")
                    .replacingOccurrences(of: "payee.iban", with: "creditorAccount.iban")
                    .replacingOccurrences(of: "reference", with: "remittanceInformationUnstructured"))
        }
        var actions: [String]?
        if let value = entry["actions"] {
            let names = try strings(value, field: "actions")
            guard Set(names).isSubset(of: PaymentInitiation.knownActions), names.contains("initiate") else {
                throw Violation("actions must include initiate, and name only initiate, status and cancel")
            }
            actions = names
        }
        return PaymentInitiation(transaction: transaction, actions: actions, locations: try locations(entry))
    }

    private static func accountAccess(_ entry: [String: JSONValue], now: Date) throws -> AccountInformation {
        try onlyMembers(entry, ["type", "accounts", "access", "validUntil", "locations"], of: "account_information")
        guard case .array(let listed)? = entry["accounts"], (1...10).contains(listed.count) else {
            throw Violation("account_information needs accounts: 1 to 10 objects with an iban")
        }
        var accounts: [String] = []
        for account in listed {
            guard case .object(let members) = account else { throw Violation("each account must be an object with an iban") }
            try onlyMembers(members, ["iban"], of: "an account")
            guard case .string(let text)? = members["iban"], let iban = IBAN.normalized(text) else {
                throw Violation("each account needs a valid iban")
            }
            guard !accounts.contains(iban) else { throw Violation("an account is listed twice") }
            accounts.append(iban)
        }
        guard let accessValue = entry["access"] else { throw Violation("account_information needs access: balances, transactions or both") }
        let access = try strings(accessValue, field: "access")
        guard Set(access).isSubset(of: AccountInformation.knownAccess) else {
            throw Violation("access must name balances, transactions or both")
        }
        guard case .string(let until)? = entry["validUntil"], let expiry = ISO8601DateFormatter().date(from: until) else {
            throw Violation("account_information needs validUntil, an RFC 3339 UTC time such as 2027-05-01T00:00:00Z")
        }
        guard expiry > now, expiry.timeIntervalSince(now) <= AccountInformation.longestValidity else {
            throw Violation("validUntil must be in the future and at most 180 days ahead")
        }
        return AccountInformation(
            accounts: accounts, access: access, validUntil: ISO8601DateFormatter().string(from: expiry), locations: try locations(entry))
    }

    /// Refuses a member this server does not know.
    private static func onlyMembers(_ object: [String: JSONValue], _ known: Set<String>, of name: String) throws {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw Violation("\(name) has a member this server does not know: \(unknown)")
        }
    }

    /// 1 to `most` distinct strings.
    private static func strings(_ value: JSONValue, field: String, most: Int = 3) throws -> [String] {
        guard case .array(let items) = value, (1...most).contains(items.count) else {
            throw Violation("\(field) must be an array of 1 to \(most) strings")
        }
        let names = try items.map { item -> String in
            guard case .string(let name) = item else { throw Violation("\(field) must be an array of strings") }
            return name
        }
        guard Set(names).count == names.count else { throw Violation("\(field) names a value twice") }
        return names
    }

    /// `locations`, when given: 1 to 3 absolute `https` URLs of at most 200 characters.
    private static func locations(_ entry: [String: JSONValue]) throws -> [String]? {
        guard let value = entry["locations"] else { return nil }
        let urls = try strings(value, field: "locations")
        for url in urls {
            guard url.utf8.count <= 200, let parsed = URL(string: url), parsed.scheme == "https", parsed.host?.isEmpty == false else {
                throw Violation("locations must be absolute https URLs of at most 200 characters")
            }
        }
        return urls
    }
}
