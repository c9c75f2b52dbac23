/// How an operation is put into words for a person: the consent page and the code message say
/// the same thing, so what the user reads on the page is what the code approves.
package enum OperationWording {
    /// `"1250.00", "EUR"` → `"1,250.00 EUR"`: the integer part grouped by thousands, the decimals
    /// as given (the currency's minor units were checked already), then the ISO code.
    package static func amount(_ amount: String, currency: String) -> String {
        let parts = amount.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = Array(parts.first.map(String.init) ?? "")
        var grouped = ""
        for (index, character) in integer.enumerated() {
            if index > 0, (integer.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        let decimals = parts.count > 1 ? "." + parts[1] : ""
        return "\(grouped)\(decimals) \(currency)"
    }

    /// `FR7630006000011234567890189` → `FR76 3000 6000 0112 3456 7890 189`.
    package static func groupedIBAN(_ iban: String) -> String {
        var result = ""
        for (index, character) in iban.enumerated() {
            if index > 0, index % 4 == 0 { result.append(" ") }
            result.append(character)
        }
        return result
    }

    /// `"pay 1,250.00 EUR to Alice Martin"`: the words the code message and the page share.
    package static func payment(_ transaction: Transaction) -> String {
        "pay \(amount(transaction.amount, currency: transaction.currency)) to \(transaction.payee.name)"
    }

    /// `"add Mallory Ltd (FR76 3000 6000 0112 3456 7890 189) as a trusted beneficiary"`: the
    /// whole account, grouped by four, so what the user approves is what gets added.
    package static func beneficiary(name: String, iban: String) -> String {
        "add \(name) (\(groupedIBAN(iban))) as a trusted beneficiary"
    }

    /// `"ACME Pay asks you to approve: add Mallory Ltd (…) as a trusted beneficiary"`: a
    /// partner's request as the code message and the push name it, with the partner's name.
    package static func request(by clientName: String, _ summary: String) -> String {
        "\(clientName) asks you to approve: \(summary)"
    }
}
