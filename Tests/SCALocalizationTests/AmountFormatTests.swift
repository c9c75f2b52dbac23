import Foundation
import Testing

@testable import SCALocalization

@Suite struct AmountFormatTests {
    static let nbsp = "\u{00A0}", narrow = "\u{202F}"

    @Test func eachLanguageWritesAnAmountItsOwnWay() {
        let expected: [Language: String] = [
            .english: "€1,250.00",
            .german: "1.250,00\(Self.nbsp)€",
            .french: "1\(Self.narrow)250,00\(Self.nbsp)€",
            .spanish: "1250,00\(Self.nbsp)€",
            .italian: "1250,00\(Self.nbsp)€",
            .dutch: "€\(Self.nbsp)1.250,00",
        ]
        for (language, text) in expected {
            #expect(AmountFormat.text("1250.00", currency: "EUR", in: language) == text, "\(language)")
        }
    }

    /// Spanish and Italian group only from five integer digits (CLDR's minimum grouping digits 2).
    @Test func spanishAndItalianGroupFromTenThousand() {
        #expect(AmountFormat.text("12500.00", currency: "EUR", in: .spanish) == "12.500,00\(Self.nbsp)€")
        #expect(AmountFormat.text("12500.00", currency: "EUR", in: .italian) == "12.500,00\(Self.nbsp)€")
        #expect(AmountFormat.text("999.99", currency: "EUR", in: .german) == "999,99\(Self.nbsp)€")
    }

    @Test func otherCurrencies() {
        #expect(AmountFormat.text("5.00", currency: "CHF", in: .english) == "CHF\(Self.nbsp)5.00")
        #expect(AmountFormat.text("5.00", currency: "usd", in: .french) == "5,00\(Self.nbsp)$US")
        #expect(AmountFormat.text("1000", currency: "JPY", in: .english) == "JPY\(Self.nbsp)1,000")
        #expect(AmountFormat.text("-3.50", currency: "EUR", in: .english) == "-€3.50")
        #expect(AmountFormat.text("-3.50", currency: "EUR", in: .dutch) == "€\(Self.nbsp)-3,50")
    }

    /// The digits are the wire's, however many: nothing goes through `Double`.
    @Test func digitsSurviveExactly() {
        #expect(
            AmountFormat.text("12345678901234567.89", currency: "EUR", in: .german)
                == "12.345.678.901.234.567,89\(Self.nbsp)€")
        #expect(AmountFormat.text("0.10", currency: "EUR", in: .english) == "€0.10")
        #expect(AmountFormat.text("0.1", currency: "EUR", in: .english) == "€0.1")  // not padded
        #expect(AmountFormat.text("125", currency: "EUR", in: .french) == "125\(Self.nbsp)€")
    }

    static let amounts = [
        "0.01", "1", "1.5", "12.34", "999.99", "1000.00", "1250.00", "12500.00", "100000.00", "1234567.89",
        "99999999999999999999.99", "-1250.00", "0.001",
    ]

    /// Parse each text back the way a reader would (drop the currency and grouping, read the
    /// decimal separator as a point): it is the amount that went in, in every language.
    @Test(arguments: Language.allCases)
    func textParsesBackToTheSameDecimal(_ language: Language) throws {
        let conventions = NumberConventions(language)
        for amount in Self.amounts {
            let text = try #require(AmountFormat.text(amount, currency: "EUR", in: language))
            let back = text
                .replacingOccurrences(of: "€", with: "")
                .replacingOccurrences(of: Self.nbsp, with: "")
                .replacingOccurrences(of: conventions.groupingSeparator, with: "")
                .replacingOccurrences(of: conventions.decimalSeparator, with: ".")
            #expect(back == amount, "\(language) \(amount) → \(text)")
        }
    }

    @Test func notAPlainDecimalIsRefused() {
        for bad in ["", "-", "1e3", "1,250.00", "+5", " 5", "5 ", "5.", ".5", "1.2.3", "١٢", "0x10", "NaN", "--1"] {
            #expect(AmountFormat.text(bad, currency: "EUR", in: .english) == nil, "\(bad)")
        }
    }

    /// The conventions written here against Foundation's own currency formatting (ICU's CLDR
    /// data) for amounts whose decimals are the currency's: if a toolchain's CLDR moves, this
    /// says where. Foundation pads or rounds other decimals, which is why it is not used.
    @Test(arguments: Language.allCases)
    func agreesWithFoundationsCLDRData(_ language: Language) {
        for currency in ["EUR", "USD", "GBP", "CHF", "SEK"] {
            for amount in ["0.05", "7.00", "1250.00", "12500.00", "-1250.50", "1234567.89"] {
                let foundation = Decimal(string: amount)!.formatted(
                    .currency(code: currency).locale(Locale(identifier: language.rawValue)))
                #expect(
                    AmountFormat.text(amount, currency: currency, in: language) == foundation,
                    "\(language) \(amount) \(currency)")
            }
        }
    }
}
