import Foundation

/// Which language a person reads, decided from what the request and the account say. Pure: the
/// caller passes the raw values and gets a language; nothing is read from a request here, so
/// the rule is tested without one.
///
/// The order is the most deliberate choice first:
/// 1. OIDC `ui_locales` on the authorization request: the partner's app asks for the language
///    its user is reading right now.
/// 2. The language stored on the account: the user chose it, in the bank's app or here.
/// 3. `Accept-Language`: the browser's setting, often left at the operating system's.
/// 4. The configured default.
///
/// Only the primary language subtag counts (`fr-BE` and `fr_CA` are French): the catalogues
/// are per language, not per country. A value naming no shipped language is passed over.
package enum LocaleNegotiation {
    /// - Parameters:
    ///   - uiLocales: `ui_locales`, space-separated BCP 47 tags in order of preference.
    ///   - stored: the account's language tag, if the user chose one.
    ///   - acceptLanguage: the `Accept-Language` header (RFC 9110 §12.5.4), with q-values.
    ///   - fallback: the configured default, when nothing else names a shipped language.
    package static func language(
        uiLocales: String?, stored: String?, acceptLanguage: String?, default fallback: Language
    ) -> Language {
        if let uiLocales {
            for tag in uiLocales.split(whereSeparator: \.isWhitespace) {
                if let language = language(ofTag: tag) { return language }
            }
        }
        if let stored, let language = language(ofTag: stored[...]) { return language }
        if let acceptLanguage, let language = self.language(acceptLanguage: acceptLanguage, default: fallback) {
            return language
        }
        return fallback
    }

    /// The shipped language of a BCP 47 tag, by its primary subtag: `de-AT` → German.
    package static func language(ofTag tag: Substring) -> Language? {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? ""
        return Language(code: String(primary.trimmingCharacters(in: .whitespaces)))
    }

    /// The best shipped language the header accepts, or nil when it accepts none. Ranges are
    /// taken by falling q-value, ties in header order; `q=0` means "not this one". `*`
    /// accepts any language, so it stands for the default unless the header refused that, then
    /// for the first shipped language not refused.
    static func language(acceptLanguage header: String, default fallback: Language) -> Language? {
        var ranges: [(tag: Substring, quality: Double, order: Int)] = []
        for (order, item) in header.split(separator: ",").enumerated() {
            let parts = item.split(separator: ";")
            guard let tag = parts.first?.trimmingCharacters(in: .whitespaces), !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0].lowercased() == "q" {
                    // A q-value that does not parse is treated as absent (1), as most servers do.
                    quality = Double(pair[1]).map { min(max($0, 0), 1) } ?? 1
                }
            }
            ranges.append((tag[...], quality, order))
        }
        let refused = Set(ranges.filter { $0.quality == 0 && $0.tag != "*" }.compactMap { language(ofTag: $0.tag) })
        let accepted = ranges.filter { $0.quality > 0 }.sorted {
            $0.quality != $1.quality ? $0.quality > $1.quality : $0.order < $1.order
        }
        for range in accepted {
            if range.tag == "*" {
                if !refused.contains(fallback) { return fallback }
                if let other = Language.allCases.first(where: { !refused.contains($0) }) { return other }
                continue
            }
            if let language = language(ofTag: range.tag), !refused.contains(language) { return language }
        }
        return nil
    }
}
