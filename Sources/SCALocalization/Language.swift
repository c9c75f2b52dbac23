/// A language the product ships words in. The raw value is the BCP 47 primary language
/// subtag, which is also the catalogue file's name (`fr` → `Catalogue/fr.json`).
///
/// Only the language is chosen, never a region: the six catalogues are written once for every
/// country that speaks them, and a bank's customer in Brussels reads the same French as one in
/// Lyon. Number and date conventions follow the language too (``AmountFormat``).
package enum Language: String, CaseIterable, Sendable, Hashable, Codable {
    case english = "en"
    case french = "fr"
    case german = "de"
    case spanish = "es"
    case italian = "it"
    case dutch = "nl"

    /// The language every other catalogue is checked against: it holds every key, and its
    /// placeholders are the ones each translation must use.
    package static let reference = Language.english

    /// The BCP 47 tag, for `<html lang>` and `Content-Language`.
    package var tag: String { rawValue }

    /// The CLDR plural rule of the language.
    package var pluralRule: PluralRule {
        // Every shipped language has a rule; the force is checked by a test over allCases.
        PluralRule(languageCode: rawValue)!
    }

    /// The language whose primary subtag is `code` (`"fr"`, `"FR"`), if it is shipped.
    package init?(code: String) {
        self.init(rawValue: code.lowercased())
    }
}
