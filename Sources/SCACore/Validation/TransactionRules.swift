/// Checks and normalises a payment before it is bound into a challenge.
public enum TransactionRules {
    /// The transaction as it will be canonicalised: IBAN upper-case without spaces.
    /// - Throws: nothing; returns the reason as `.failure` so callers map it to their own error.
    public static func normalized(_ transaction: Transaction) -> Result<Transaction, TransactionRuleViolation> {
        var result = transaction
        guard isDecimalAmount(transaction.amount) else {
            return .failure(.init("amount must be a decimal string such as 125.00"))
        }
        guard transaction.currency.count == 3, transaction.currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            return .failure(.init("currency must be an ISO 4217 code such as EUR"))
        }
        guard InputRules.isPlainText(transaction.payee.name, maxLength: 140) else {
            return .failure(.init("payee.name must be 1 to 140 characters"))
        }
        if let iban = transaction.payee.iban {
            let compact = iban.filter { $0 != " " }.uppercased()
            guard compact.count >= 15, compact.count <= 34,
                compact.allSatisfy({ $0.isASCIIAlphanumeric }),
                compact.prefix(2).allSatisfy(\.isLetter), compact.dropFirst(2).prefix(2).allSatisfy(\.isASCIIDigit)
            else { return .failure(.init("payee.iban is not an IBAN")) }
            result.payee.iban = compact
        }
        if let reference = transaction.reference, !InputRules.isPlainText(reference, maxLength: 140) {
            return .failure(.init("reference must be 1 to 140 characters"))
        }
        return .success(result)
    }

    private static func isDecimalAmount(_ amount: String) -> Bool {
        let parts = amount.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), (1...15).contains(parts[0].count), parts[0].allSatisfy(\.isASCIIDigit),
            parts[0] == "0" || parts[0].first != "0"
        else { return false }
        if parts.count == 2 { return (1...4).contains(parts[1].count) && parts[1].allSatisfy(\.isASCIIDigit) }
        return true
    }

    /// `FR7630006000011234567890189` → `FR76…0189`, as shown to the user.
    public static func maskedIBAN(_ iban: String) -> String {
        guard iban.count > 8 else { return iban }
        return "\(iban.prefix(4))…\(iban.suffix(4))"
    }
}

/// Why a transaction was refused.
public struct TransactionRuleViolation: Error, Sendable, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}
