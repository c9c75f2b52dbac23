/// One key's words in one language: a plain string, or one string per CLDR plural category
/// for a string that carries a count.
package enum CatalogueEntry: Sendable, Equatable {
    case text(String)
    case plural([PluralCategory: String])

    /// Every string of the entry, for checks that look at all of them.
    package var forms: [String] {
        switch self {
        case .text(let text): [text]
        case .plural(let forms): forms.sorted { $0.key < $1.key }.map(\.value)
        }
    }
}
