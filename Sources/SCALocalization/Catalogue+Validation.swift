extension Catalogue {
    /// Every mistake a translator can make that decoding does not catch: a key missing or
    /// misspelt, a plural entry whose forms are not its language's CLDR categories, braces that
    /// make no placeholder, and placeholders that differ from English's for the same key (a
    /// misspelt `{amont}`, a forgotten `{payee}`). Empty when the catalogue can ship.
    ///
    /// Each form of a plural entry must use the same placeholders as English's entry: a form
    /// that dropped `{count}` would be right for one number and wrong for the others French
    /// puts in `one` (0 and 1).
    package func validate() -> [CatalogueProblem] {
        var problems: [CatalogueProblem] = []
        let reference = entries[Language.reference] ?? [:]
        for language in Language.allCases {
            guard let own = entries[language] else {
                problems.append(CatalogueProblem(.missingFile, language: language))
                continue
            }
            for key in reference.keys.sorted() where own[key] == nil {
                problems.append(CatalogueProblem(.missingKey, language: language, key: key))
            }
            for key in own.keys.sorted() {
                guard let entry = own[key] else { continue }
                problems += Self.check(entry, against: reference[key], language: language, key: key)
            }
        }
        return problems
    }

    /// One entry against English's for the same key (nil when English has none).
    private static func check(
        _ entry: CatalogueEntry, against english: CatalogueEntry?, language: Language, key: String
    ) -> [CatalogueProblem] {
        var problems: [CatalogueProblem] = []
        func problem(_ kind: CatalogueProblem.Kind) { problems.append(CatalogueProblem(kind, language: language, key: key)) }

        if case .plural(let forms) = entry {
            let expected = language.pluralRule.categories
            if Set(forms.keys) != expected { problem(.pluralCategories(expected: expected, found: Set(forms.keys))) }
        }
        var found: [Set<String>] = []
        for form in entry.forms {
            do throws(TextTemplate.Fault) {
                found.append(try TextTemplate.placeholders(in: form))
            } catch {
                problem(.malformedPlaceholder(error.reason))
            }
        }
        guard language != Language.reference else {
            // English is the reference: its own plural forms must agree with each other.
            if let first = found.first, let other = found.first(where: { $0 != first }) {
                problem(.placeholders(expected: first, found: other))
            }
            return problems
        }
        guard let english else {
            problem(.unexpectedKey)
            return problems
        }
        switch (entry, english) {
        case (.text, .plural), (.plural, .text): problem(.pluralMismatch)
        default: break
        }
        let expected = english.forms.reduce(into: Set<String>()) { names, form in
            names.formUnion((try? TextTemplate.placeholders(in: form)) ?? [])
        }
        // One report per entry, however many of its forms share the slip.
        if let wrong = found.first(where: { $0 != expected }) {
            problem(.placeholders(expected: expected, found: wrong))
        }
        return problems
    }
}
