import Foundation

/// Every user-facing string in every shipped language, read from one JSON file per language
/// (`Catalogue/en.json`, `fr.json`, …; docs/localisation.md says why and how to edit them).
///
/// Lookups never fail: a key missing from a language falls back to English, and one missing
/// from English too reads as the key itself. Neither may happen in what ships — ``validate()``
/// finds both, and the catalogue test runs it — but a slip must show as an odd word on a page,
/// never as a failed sign-in or payment.
package struct Catalogue: Sendable {
    /// The entries of each language, by key.
    package let entries: [Language: [String: CatalogueEntry]]

    package init(entries: [Language: [String: CatalogueEntry]]) {
        self.entries = entries
    }

    /// Decodes one file per language. A language without a file is left out (``validate()``
    /// reports it); everything wrong inside a file is reported at once, so a translator fixes
    /// the file in one go.
    /// - Throws: the ``CatalogueProblem``s of every file that does not decode.
    package init(files: [Language: Data]) throws(CatalogueProblems) {
        var entries: [Language: [String: CatalogueEntry]] = [:]
        var problems: [CatalogueProblem] = []
        for language in Language.allCases {
            guard let data = files[language] else { continue }
            switch Self.decode(data, language: language) {
            case .success(let decoded): entries[language] = decoded
            case .failure(let failure): problems += failure.problems
            }
        }
        guard problems.isEmpty else { throw CatalogueProblems(problems: problems) }
        self.entries = entries
    }

    /// The string of `key` in `language`, its placeholders filled from `values`. A plural entry
    /// asked for without a count gives its `other` form.
    package func text(_ key: String, in language: Language, values: [String: String] = [:]) -> String {
        guard let entry = entry(key, in: language) else { return key }
        switch entry {
        case .text(let text):
            return TextTemplate.fill(text, with: values)
        case .plural(let forms):
            return TextTemplate.fill(forms[.other] ?? forms.values.first ?? key, with: values)
        }
    }

    /// The form of `key` that goes with `count` in `language` (its CLDR plural category), with
    /// `{count}` filled by the count written as the language writes numbers (`1 000 000` in
    /// French) and the other placeholders from `values`.
    package func text(_ key: String, count: Int, in language: Language, values: [String: String] = [:]) -> String {
        var values = values
        values["count"] = values["count"] ?? NumberConventions(language).integer(count)
        guard let entry = entry(key, in: language) else { return key }
        switch entry {
        case .text(let text):
            return TextTemplate.fill(text, with: values)
        case .plural(let forms):
            // English's entry, when it stands in, chooses by English's rule.
            let rule = entries[language]?[key] != nil ? language.pluralRule : Language.reference.pluralRule
            let form = forms[rule.category(for: count)] ?? forms[.other] ?? forms.values.first ?? key
            return TextTemplate.fill(form, with: values)
        }
    }

    /// Whether `key` exists in English, the reference: what a caller checks before offering a key
    /// it built (`consent.finished.\(status)`).
    package func contains(_ key: String) -> Bool {
        entries[Language.reference]?[key] != nil
    }

    private func entry(_ key: String, in language: Language) -> CatalogueEntry? {
        entries[language]?[key] ?? entries[Language.reference]?[key]
    }

    /// One file: a JSON object whose values are strings or objects of plural forms.
    private static func decode(_ data: Data, language: Language) -> Result<[String: CatalogueEntry], CatalogueProblems> {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            return .failure(CatalogueProblems(problems: [
                CatalogueProblem(.malformedFile(Self.reason(error, in: data)), language: language)
            ]))
        }
        guard let dictionary = object as? [String: Any] else {
            return .failure(CatalogueProblems(problems: [
                CatalogueProblem(.malformedFile("the file must hold one object, { \"key\": \"text\", … }"), language: language)
            ]))
        }
        var entries: [String: CatalogueEntry] = [:]
        var problems: [CatalogueProblem] = []
        for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
            if let text = value as? String {
                entries[key] = .text(text)
            } else if let object = value as? [String: Any] {
                var forms: [PluralCategory: String] = [:]
                for (name, form) in object.sorted(by: { $0.key < $1.key }) {
                    guard let category = PluralCategory(rawValue: name) else {
                        problems.append(CatalogueProblem(.unknownPluralCategory(name), language: language, key: key))
                        continue
                    }
                    guard let text = form as? String else {
                        problems.append(CatalogueProblem(.invalidPluralForm(name), language: language, key: key))
                        continue
                    }
                    forms[category] = text
                }
                entries[key] = .plural(forms)
            } else {
                problems.append(CatalogueProblem(.invalidValue, language: language, key: key))
            }
        }
        return problems.isEmpty ? .success(entries) : .failure(CatalogueProblems(problems: problems))
    }

    /// Foundation's reason for a JSON error, with the line and column a translator's editor shows:
    /// on Linux Foundation names only a character offset ("around character 18").
    private static func reason(_ error: any Error, in data: Data) -> String {
        let nsError = error as NSError
        let reason = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
        guard let range = reason.range(of: "around character "),
            let offset = Int(reason[range.upperBound...].prefix(while: \.isNumber))
        else { return reason }
        let before = data.prefix(offset)
        let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        let column = before.endIndex - lineStart + 1
        return "\(reason) (line \(line), column \(column))"
    }
}
