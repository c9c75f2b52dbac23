/// An ISO 4217 currency this server accepts for payments, with its minor units: the number of
/// decimals an amount must carry, so that one amount has exactly one string and one digest.
package struct Currency: Sendable, Equatable, Hashable {
    /// ISO 4217 alphabetic code, e.g. `EUR`.
    package let code: String
    /// Decimals of the minor unit: 2 for EUR (cents), 0 for JPY, 3 for BHD.
    package let minorUnits: Int

    private init(_ code: String, _ minorUnits: Int) {
        self.code = code
        self.minorUnits = minorUnits
    }

    /// Every accepted currency. Minor units per ISO 4217 (not market practice: HUF and CZK
    /// are 2 there even though cash has no fillér or haléř).
    package static let all: [Currency] = [
        // EU/EEA and neighbours
        .init("EUR", 2), .init("BGN", 2), .init("CHF", 2), .init("CZK", 2), .init("DKK", 2),
        .init("GBP", 2), .init("HUF", 2), .init("ISK", 0), .init("NOK", 2), .init("PLN", 2),
        .init("RON", 2), .init("SEK", 2),
        // other major currencies
        .init("USD", 2), .init("CAD", 2), .init("AUD", 2), .init("NZD", 2), .init("JPY", 0),
        .init("KRW", 0), .init("CNY", 2), .init("HKD", 2), .init("SGD", 2),
        // three-decimal currencies
        .init("BHD", 3), .init("KWD", 3), .init("JOD", 3), .init("OMR", 3), .init("TND", 3),
    ]

    private static let byCode: [String: Currency] = Dictionary(
        all.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

    /// nil for codes not in the table. Case-sensitive: the code goes into the transaction's
    /// canonical form, so `eur` is refused rather than silently giving a second spelling.
    package init?(code: String) {
        guard let currency = Self.byCode[code] else { return nil }
        self = currency
    }

    /// Integer digits allowed before the decimal point; with 3 decimals this stays below 10^18,
    /// well inside Int64.
    static let maxIntegerDigits = 15

    /// The amount in minor units when `amount` is a plain decimal with EXACTLY `minorUnits`
    /// decimals ("125.00" for EUR, "125" for JPY), no sign, no leading zeros except "0.xx",
    /// at most 15 integer digits, and > 0; nil otherwise.
    package func minorUnits(of amount: String) -> Int64? {
        let parts = Array(amount.utf8).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == (minorUnits == 0 ? 1 : 2) else { return nil }
        let integer = parts[0]
        let fraction = parts.count == 2 ? parts[1] : []
        guard (1...Self.maxIntegerDigits).contains(integer.count), fraction.count == minorUnits,
            integer.count == 1 || integer.first != UInt8(ascii: "0")
        else { return nil }
        var value: Int64 = 0
        for digit in integer + fraction {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = shifted + Int64(digit - UInt8(ascii: "0"))
        }
        return value > 0 ? value : nil
    }
}
