import Foundation

/// What a page, a message or a prompt needs to speak to one person: the catalogue, the language
/// negotiated for them (``LocaleNegotiation``) and their time zone when known. A value, built
/// per request, so nothing about one user's language leaks into another's.
package struct Localizer: Sendable {
    package let catalogue: Catalogue
    package let language: Language
    /// The user's zone; nil means times are shown in UTC, and say so.
    package let timeZone: TimeZone?

    package init(catalogue: Catalogue, language: Language, timeZone: TimeZone? = nil) {
        self.catalogue = catalogue
        self.language = language
        self.timeZone = timeZone
    }

    /// `text("consent.payment.title", ["amount": …, "payee": …])`.
    package func text(_ key: String, _ values: [String: String] = [:]) -> String {
        catalogue.text(key, in: language, values: values)
    }

    /// The form of `key` for `count`, `{count}` written as the language writes numbers.
    package func text(_ key: String, count: Int, _ values: [String: String] = [:]) -> String {
        catalogue.text(key, count: count, in: language, values: values)
    }

    /// The amount in the language's way (``AmountFormat``); the wire form (`1250.00 EUR`) when
    /// the amount is not a plain decimal string, so a slip upstream never hides an amount.
    package func amount(_ amount: String, currency: String) -> String {
        AmountFormat.text(amount, currency: currency, in: language) ?? "\(amount) \(currency)"
    }

    /// The moment in the user's zone, or in UTC, with the zone said.
    package func dateTime(_ date: Date) -> String {
        DateTimeFormat.text(date, in: language, timeZone: timeZone, catalogue: catalogue)
    }

    /// The IBAN in groups of four.
    package func iban(_ iban: String) -> String {
        IBANFormat.grouped(iban)
    }
}
