import Foundation
import SCALocalization

/// The words of one page answer: the catalogue in the language negotiated for this request,
/// and where the language switch comes back to. Built per request, so nothing of one
/// person's language reaches another's page.
struct PageWords: Sendable {
    let localizer: Localizer
    /// The page's own address (`/consents/cst_…`), which the switch's links return to; nil for
    /// a page that has no address to return to (the demo partner's).
    let here: String?

    var language: Language { localizer.language }

    /// The entry `key`, its placeholders filled from `values`.
    func text(_ key: String, _ values: [String: String] = [:]) -> String {
        localizer.text(key, values)
    }

    /// The form of `key` that goes with `count`.
    func text(_ key: String, count: Int, _ values: [String: String] = [:]) -> String {
        localizer.text(key, count: count, values)
    }

    /// A kept notice or error, in this page's language.
    func text(_ text: PageText) -> String {
        text.text(in: localizer)
    }

    /// The entry as HTML for a triple-brace value (`{{{lead}}}`): every part escaped, and the
    /// values of `strong` placeholders (a partner's name, a device's) set in `<strong>`. The
    /// sentence stays whole in the catalogue, so a translator puts the name where the language
    /// needs it, and it is still the name that stands out.
    func html(_ key: String, _ values: [String: String], strong: Set<String>) -> String {
        var marked = values.mapValues(Self.unmarked)
        for name in strong {
            if let value = marked[name] { marked[name] = Self.open + value + Self.close }
        }
        return Self.escape(localizer.text(key, marked))
            .replacingOccurrences(of: Self.escape(Self.open), with: "<strong>")
            .replacingOccurrences(of: Self.escape(Self.close), with: "</strong>")
    }

    /// The amount as the language writes it, digit for digit the one the proof binds.
    func amount(_ amount: String, currency: String) -> String {
        localizer.amount(amount, currency: currency)
    }

    func iban(_ iban: String) -> String {
        localizer.iban(iban)
    }

    /// A moment in the reader's language, its zone said (UTC on a page, which knows none).
    func dateTime(_ date: Date) -> String {
        localizer.dateTime(date)
    }

    /// What the templates read as `t`: `{{t.signin.title}}`.
    var catalogueNode: CatalogueNode { CatalogueNode(localizer: localizer, key: "") }

    /// The switch's entries, each language named in itself, the page's own marked current.
    var switchLinks: [[String: Any]] {
        guard let here else { return [] }
        return Language.allCases.map { language in
            var link: [String: Any] = [
                "code": language.tag, "name": localizer.catalogue.text("language.name.\(language.tag)", in: language),
                "href": LanguageSwitch.link(to: language, returningTo: here),
            ]
            if language == self.language { link["current"] = true }
            return link
        }
    }

    /// Private-use characters mark the strong values through the catalogue's filling and the
    /// escaping, which leave them alone. Names never hold them (``DisplayText`` refuses
    /// private-use characters), and any value is cleared of them first all the same, so
    /// nothing typed can open or close a `<strong>`.
    private static let open = "\u{E000}"
    private static let close = "\u{E001}"

    private static func unmarked(_ value: String) -> String {
        value.replacingOccurrences(of: open, with: "").replacingOccurrences(of: close, with: "")
    }

    /// The five characters HTML gives meaning to, as the templates' `{{ }}` escapes them.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
