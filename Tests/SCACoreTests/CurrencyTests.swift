import Testing
import SCACore

@Suite("Currencies (ISO 4217)")
struct CurrencyTests {
    @Test(
        "required table entries with their ISO 4217 minor units",
        arguments: [
            ("EUR", 2), ("USD", 2), ("GBP", 2), ("CHF", 2), ("SEK", 2), ("NOK", 2), ("DKK", 2), ("PLN", 2),
            ("CZK", 2), ("HUF", 2), ("RON", 2), ("JPY", 0), ("BGN", 2), ("ISK", 0), ("KRW", 0), ("BHD", 3),
            ("KWD", 3), ("CAD", 2), ("AUD", 2),
        ])
    func table(code: String, minorUnits: Int) throws {
        let currency = try #require(Currency(code: code))
        #expect(currency.code == code)
        #expect(currency.minorUnits == minorUnits)
        #expect(Currency.all.contains(currency))
    }

    @Test("the table has no duplicates and only sane entries")
    func tableShape() {
        #expect(Set(Currency.all.map(\.code)).count == Currency.all.count)
        for currency in Currency.all {
            #expect(currency.code.count == 3 && currency.code.allSatisfy { $0.isASCII && $0.isUppercase })
            #expect((0...3).contains(currency.minorUnits))
            #expect(Currency(code: currency.code) == currency)
        }
    }

    @Test("unknown or differently spelled codes are refused", arguments: ["", "eur", "Eur", "XXX", "EURO", "EU", "XYZ", "EUR "])
    func unknown(code: String) {
        #expect(Currency(code: code) == nil)
    }

    @Test(
        "amount parsing",
        arguments: [
            ("EUR", "125.00", 12_500 as Int64?), ("EUR", "125", nil), ("EUR", "125.0", nil), ("EUR", "125.000", nil),
            ("JPY", "125", 125), ("JPY", "125.00", nil), ("JPY", "125.", nil), ("JPY", "0", nil), ("JPY", "01", nil),
            ("EUR", "0.01", 1), ("EUR", "0.00", nil), ("EUR", "-1.00", nil), ("EUR", "+1.00", nil),
            ("EUR", "01.00", nil), ("EUR", "00.01", nil), ("EUR", ".50", nil), ("EUR", "1.", nil), ("EUR", "", nil),
            ("EUR", "1,00", nil), ("EUR", " 1.00", nil), ("EUR", "1.00 ", nil), ("EUR", "1.0a", nil), ("EUR", "1e2", nil),
            ("EUR", "1.00.00", nil), ("EUR", "١.٠٠", nil), ("EUR", "１.００", nil),
            ("BHD", "1.234", 1_234), ("BHD", "1.23", nil), ("KWD", "0.001", 1),
            ("EUR", "999999999999999.99", 99_999_999_999_999_999), ("EUR", "1000000000000000.00", nil),
            ("BHD", "999999999999999.999", 999_999_999_999_999_999), ("JPY", "999999999999999", 999_999_999_999_999),
            ("JPY", "1000000000000000", nil),
        ])
    func amounts(code: String, amount: String, expected: Int64?) throws {
        let currency = try #require(Currency(code: code))
        #expect(currency.minorUnits(of: amount) == expected, "\(amount) \(code)")
    }
}
