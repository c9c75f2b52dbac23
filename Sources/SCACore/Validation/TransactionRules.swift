/// Checks and normalises a payment before it is bound into a challenge.
package enum TransactionRules {
    /// The transaction as it will be canonicalised: IBAN upper-case without spaces, payee name
    /// and reference in NFC. This form is what is stored, digested and shown; a client that
    /// digests the transaction itself normalises it here first, so both sides agree.
    ///
    /// The payee name (1 to ``DisplayText/maxPayeeNameLength`` characters) and the reference
    /// (1 to ``DisplayText/maxReferenceLength``) follow ``DisplayText``: no bidirectional,
    /// control, format or invisible characters. Refuses a currency outside `Currency.all`, an amount without exactly the currency's minor
    /// units (so that `125.0` and `125.00` cannot give two digests of one payment), and an IBAN
    /// that fails its country length or mod-97 check.
    /// - Throws: nothing; returns the reason as `.failure` so callers map it to their own error.
    package static func normalized(_ transaction: Transaction) -> Result<Transaction, TransactionRuleViolation> {
        var result = transaction
        guard let currency = Currency(code: transaction.currency) else {
            return .failure(.init("currency must be a supported ISO 4217 code such as EUR"))
        }
        guard currency.minorUnits(of: transaction.amount) != nil else {
            return .failure(.init(amountReason(for: currency)))
        }
        switch DisplayText.normalized(transaction.payee.name, field: "payee.name", maxLength: DisplayText.maxPayeeNameLength) {
        case .success(let name): result.payee.name = name
        case .failure(let violation): return .failure(.init(violation.reason))
        }
        if let iban = transaction.payee.iban {
            guard let normalized = IBAN.normalized(iban) else {
                return .failure(.init("payee.iban is not a valid IBAN"))
            }
            result.payee.iban = normalized
        }
        if let reference = transaction.reference {
            switch DisplayText.normalized(reference, field: "reference", maxLength: DisplayText.maxReferenceLength) {
            case .success(let normalized): result.reference = normalized
            case .failure(let violation): return .failure(.init(violation.reason))
            }
        }
        return .success(result)
    }

    /// E.g. "amount must be a positive decimal with 2 decimals for EUR, such as 125.00".
    private static func amountReason(for currency: Currency) -> String {
        let example = currency.minorUnits == 0 ? "125" : "125." + String(repeating: "0", count: currency.minorUnits)
        return "amount must be a positive decimal with \(currency.minorUnits) decimals for \(currency.code), such as \(example)"
    }

    /// `FR7630006000011234567890189` → `FR76…0189`, as shown to the user.
    package static func maskedIBAN(_ iban: String) -> String {
        guard iban.count > 8 else { return iban }
        return "\(iban.prefix(4))…\(iban.suffix(4))"
    }
}

/// Why a transaction was refused.
package struct TransactionRuleViolation: Error, Sendable, Equatable {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
}
