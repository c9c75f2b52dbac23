/// A mistake in a catalogue file, named so a translator can find and fix it: which file, which
/// key, and what is wrong. The catalogue test fails with these, so a mistake is caught before it
/// ships rather than shown to a customer.
package struct CatalogueProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of mistake; tests match on it, people read ``description``.
    package enum Kind: Equatable, Sendable {
        /// The file is not JSON, or not one JSON object.
        case malformedFile(String)
        /// The file is missing from the bundle.
        case missingFile
        /// The value is neither a string nor an object of plural forms.
        case invalidValue
        /// A plural object names a category CLDR does not have (`"several"`).
        case unknownPluralCategory(String)
        /// A plural form is not a string.
        case invalidPluralForm(String)
        /// The key is in English but not in this language.
        case missingKey
        /// The key is in this language but not in English: a misspelt key, or one English dropped.
        case unexpectedKey
        /// English has a plain string and this language a plural object, or the other way round.
        case pluralMismatch
        /// A plural entry's categories are not the ones the language's CLDR rule uses.
        case pluralCategories(expected: Set<PluralCategory>, found: Set<PluralCategory>)
        /// Braces that do not make a placeholder.
        case malformedPlaceholder(String)
        /// The placeholders differ from English's: a misspelt or a forgotten name.
        case placeholders(expected: Set<String>, found: Set<String>)
    }

    /// The catalogue file, by its language.
    package let language: Language
    /// The key, when the mistake is in one entry.
    package let key: String?
    package let kind: Kind

    package init(_ kind: Kind, language: Language, key: String? = nil) {
        self.kind = kind
        self.language = language
        self.key = key
    }

    package var description: String {
        let place = "\(language.rawValue).json" + (key.map { ", \"\($0)\"" } ?? "")
        let what: String
        switch kind {
        case .malformedFile(let reason): what = "not a JSON object of strings: \(reason)"
        case .missingFile: what = "the file is missing"
        case .invalidValue: what = "the value must be a string, or an object of plural forms"
        case .unknownPluralCategory(let name):
            what = "\"\(name)\" is not a plural category (zero, one, two, few, many, other)"
        case .invalidPluralForm(let name): what = "the \"\(name)\" form must be a string"
        case .missingKey: what = "missing: English has this key"
        case .unexpectedKey: what = "English has no such key (misspelt?)"
        case .pluralMismatch: what = "English and this language differ on whether the entry has plural forms"
        case .pluralCategories(let expected, let found):
            what = "plural forms must be exactly \(Self.list(expected)), found \(Self.list(found))"
        case .malformedPlaceholder(let reason): what = reason
        case .placeholders(let expected, let found):
            let missing = expected.subtracting(found), extra = found.subtracting(expected)
            var parts: [String] = []
            if !missing.isEmpty { parts.append("missing \(Self.braced(missing))") }
            if !extra.isEmpty { parts.append("unknown \(Self.braced(extra))") }
            what = "placeholders differ from English: " + parts.joined(separator: ", ")
        }
        return "\(place): \(what)"
    }

    private static func list(_ categories: Set<PluralCategory>) -> String {
        categories.sorted().map(\.rawValue).joined(separator: ", ")
    }

    private static func braced(_ names: Set<String>) -> String {
        names.sorted().map { "{\($0)}" }.joined(separator: ", ")
    }
}
