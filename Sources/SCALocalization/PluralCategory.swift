/// A CLDR plural category: the name a catalogue's plural entry gives each form of a string
/// that carries a count. Which categories a language uses is its ``PluralRule``'s business;
/// every language uses `other`.
package enum PluralCategory: String, CaseIterable, Sendable, Hashable, Comparable {
    case zero, one, two, few, many, other

    package static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
