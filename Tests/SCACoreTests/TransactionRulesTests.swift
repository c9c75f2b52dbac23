import Testing
import SCACore

@Suite("Transaction rules")
struct TransactionRulesTests {
    static let valid = Transaction(
        amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "fr76 3000 6000 0112 3456 7890 189"),
        reference: "INV-2024-001")

    func reason(_ transaction: Transaction) -> String? {
        if case .failure(let violation) = TransactionRules.normalized(transaction) { return violation.reason }
        return nil
    }

    @Test("a valid EUR payment is kept, its IBAN compacted and upper-cased")
    func validPayment() throws {
        let normalized = try TransactionRules.normalized(Self.valid).get()
        #expect(normalized.payee.iban == "FR7630006000011234567890189")
        #expect(normalized.amount == "125.00" && normalized.currency == "EUR")
        #expect(normalized.payee.name == "ACME SAS" && normalized.reference == "INV-2024-001")
        // Normalising is idempotent, so the digest of the normalised form is stable.
        #expect(try TransactionRules.normalized(normalized).get() == normalized)
        var spaced = Self.valid
        spaced.payee.iban = "FR7630006000011234567890189"
        #expect(try TransactionRules.normalized(spaced).get().digest == normalized.digest)
    }

    @Test("no IBAN and no reference is fine; other currencies use their own minor units")
    func optionalFields() throws {
        #expect(try TransactionRules.normalized(.init(amount: "1", currency: "JPY", payee: .init(name: "X"))).get().payee.iban == nil)
        #expect((try? TransactionRules.normalized(.init(amount: "1.500", currency: "KWD", payee: .init(name: "X"))).get()) != nil)
    }

    @Test("each rule's refusal")
    func refusals() {
        func with(_ change: (inout Transaction) -> Void) -> Transaction {
            var transaction = Self.valid
            change(&transaction)
            return transaction
        }
        let currencyReason = "currency must be a supported ISO 4217 code such as EUR"
        #expect(reason(with { $0.currency = "XXX" }) == currencyReason)
        #expect(reason(with { $0.currency = "eur" }) == currencyReason)
        #expect(reason(with { $0.currency = "" }) == currencyReason)

        let eurAmount = "amount must be a positive decimal with 2 decimals for EUR, such as 125.00"
        for amount in ["125", "125.0", "125.000", "0.00", "-1.00", "01.00", "1,00", "", "1e3"] {
            #expect(reason(with { $0.amount = amount }) == eurAmount, "\(amount)")
        }
        #expect(
            reason(with { $0.currency = "JPY" })
                == "amount must be a positive decimal with 0 decimals for JPY, such as 125")
        #expect(
            reason(with { $0.currency = "BHD" })
                == "amount must be a positive decimal with 3 decimals for BHD, such as 125.000")

        // 70 characters as in SEPA, and the display-text rule (DisplayTextTests has every class).
        let nameReason = "payee.name must be 1 to 70 characters"
        #expect(reason(with { $0.payee.name = "" }) == nameReason)
        #expect(reason(with { $0.payee.name = String(repeating: "x", count: 71) }) == nameReason)
        #expect(reason(with { $0.payee.name = " ACME" }) == "payee.name must not start or end with a space")
        #expect(reason(with { $0.payee.name = "AC\nME" })?.hasPrefix("payee.name must not contain U+000A") == true)

        let ibanReason = "payee.iban is not a valid IBAN"
        #expect(reason(with { $0.payee.iban = "FR7630006000011234567890188" }) == ibanReason)  // one digit
        #expect(reason(with { $0.payee.iban = "FR7630006000011234567809189" }) == ibanReason)  // swap
        #expect(reason(with { $0.payee.iban = "FR763000600001123456789018" }) == ibanReason)  // length
        #expect(reason(with { $0.payee.iban = "" }) == ibanReason)
        #expect(reason(with { $0.payee.iban = "not an iban" }) == ibanReason)

        let referenceReason = "reference must be 1 to 140 characters"
        #expect(reason(with { $0.reference = "" }) == referenceReason)
        #expect(reason(with { $0.reference = String(repeating: "r", count: 141) }) == referenceReason)
        #expect(reason(with { $0.reference = "a\u{0007}b" })?.hasPrefix("reference must not contain U+0007") == true)
    }

    @Test("masked IBAN for display")
    func masked() {
        #expect(TransactionRules.maskedIBAN("FR7630006000011234567890189") == "FR76…0189")
        #expect(TransactionRules.maskedIBAN("SHORT") == "SHORT")
    }
}
