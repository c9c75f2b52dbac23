/// A money amount as a person reads it in their language: `1,250.00 EUR` from the wire becomes
/// `€1,250.00` in English, `1.250,00 €` in German, `1 250,00 €` in French.
///
/// The amount is a decimal string and stays one: its digits are regrouped, never computed on,
/// so what the page or message shows is digit for digit the amount bound into the proof (RTS
/// art. 5). Foundation's `NumberFormatter` goes through `Double` and turns
/// `12345678901234567.89` into `…568,00`; its `FormatStyle` keeps the digits but pads or rounds
/// to the currency's minor units, and its currency symbols come from whatever ICU data the
/// platform carries. Neither is acceptable for the words a payment is approved on.
package enum AmountFormat {
    /// The amount in `language`, with the currency's symbol where it is unambiguous in that
    /// language and its ISO 4217 code otherwise. Separators and symbol placement are CLDR's;
    /// the space between number and currency is U+00A0 NO-BREAK SPACE, so the two never
    /// part at a line end.
    /// - Parameters:
    ///   - amount: a plain decimal string as on the wire: optional `-`, digits, optionally `.`
    ///     and digits (`"1250.00"`, `"125"`).
    ///   - currency: the ISO 4217 code (`"EUR"`).
    /// - Returns: nil when `amount` is not such a string (an exponent, grouping, a `+`, spaces).
    package static func text(_ amount: String, currency: String, in language: Language) -> String? {
        guard let number = number(amount, in: language) else { return nil }
        let negative = number.hasPrefix("-")
        let unsigned = negative ? String(number.dropFirst()) : number
        let sign = negative ? "-" : ""
        let symbol = symbol(currency.uppercased(), in: language)
        let space = "\u{00A0}"
        switch language {
        case .english:
            // CLDR puts a space between a code and the digits, none after a symbol: `CHF 5`, `€5`.
            let separator = symbol.last?.isLetter == true ? space : ""
            return "\(sign)\(symbol)\(separator)\(unsigned)"
        case .dutch:
            return "\(symbol)\(space)\(sign)\(unsigned)"
        case .french, .german, .spanish, .italian:
            return "\(sign)\(unsigned)\(space)\(symbol)"
        }
    }

    /// The amount without currency, with the language's separators: `1.250,00`.
    /// - Returns: nil when `amount` is not a plain decimal string.
    package static func number(_ amount: String, in language: Language) -> String? {
        let negative = amount.hasPrefix("-")
        let unsigned = negative ? amount.dropFirst() : amount[...]
        let parts = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let integer = parts.first, !integer.isEmpty, integer.allSatisfy(\.isASCIIDigit) else { return nil }
        let conventions = NumberConventions(language)
        var text = (negative ? "-" : "") + conventions.grouped(integer)
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCIIDigit) else { return nil }
            text += conventions.decimalSeparator + parts[1]
        }
        return text
    }

    /// The symbol CLDR gives the currency in the language, for the few currencies whose symbol
    /// a customer there knows; the ISO code for the rest, which no one misreads.
    static func symbol(_ code: String, in language: Language) -> String {
        switch (code, language) {
        case ("EUR", _): "€"
        case ("USD", .english), ("USD", .german): "$"
        case ("USD", .french): "$US"
        case ("USD", .spanish), ("USD", .dutch): "US$"
        case ("GBP", .english), ("GBP", .german), ("GBP", .italian), ("GBP", .dutch): "£"
        case ("GBP", .french): "£GB"
        default: code
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
