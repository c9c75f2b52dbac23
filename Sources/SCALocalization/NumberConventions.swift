/// How a language writes numbers: its decimal and grouping separators and CLDR's
/// "minimum grouping digits". Written here rather than asked of Foundation so that an amount
/// keeps exactly the digits it was given (``AmountFormat``) and reads the same on every server,
/// whatever ICU data its Foundation carries. The values are CLDR's for each language; a test
/// compares them with Foundation's own formatting.
package struct NumberConventions: Sendable, Equatable {
    package let decimalSeparator: String
    package let groupingSeparator: String
    /// The integer part is grouped only when it has at least this many digits more than a
    /// group: Spanish and Italian write `1250` but `12.500`.
    package let minimumGroupingDigits: Int

    package init(_ language: Language) {
        switch language {
        case .english: self.init(decimal: ".", grouping: ",", minimumGrouping: 1)
        // U+202F NARROW NO-BREAK SPACE, CLDR's French group separator since release 34: the
        // number never breaks across lines, and it is narrower than a word space.
        case .french: self.init(decimal: ",", grouping: "\u{202F}", minimumGrouping: 1)
        case .german, .dutch: self.init(decimal: ",", grouping: ".", minimumGrouping: 1)
        case .spanish, .italian: self.init(decimal: ",", grouping: ".", minimumGrouping: 2)
        }
    }

    private init(decimal: String, grouping: String, minimumGrouping: Int) {
        decimalSeparator = decimal
        groupingSeparator = grouping
        minimumGroupingDigits = minimumGrouping
    }

    /// `digits` (ASCII digits only) grouped by thousands.
    package func grouped(_ digits: Substring) -> String {
        guard digits.count >= 3 + minimumGroupingDigits else { return String(digits) }
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += groupingSeparator }
            result.append(digit)
        }
        return result
    }

    /// A whole number as the language writes it: `1000000` → `1 000 000` in French.
    package func integer(_ value: Int) -> String {
        let digits = String(value.magnitude)
        return (value < 0 ? "-" : "") + grouped(digits[...])
    }
}
