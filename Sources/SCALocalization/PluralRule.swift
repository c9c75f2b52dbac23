/// The CLDR cardinal plural rule of one language, for whole numbers: which form of a string
/// goes with a count.
///
/// Counts shown to a person here are always whole (attempts left, minutes), so only the
/// integer part of each CLDR rule is written (`v = 0`, `e = 0`: no visible fraction digits, no
/// compact exponent). The rules are CLDR's as of release 42 and later, in which Spanish,
/// French and Italian gained `many` for exact multiples of a million ("1 million de
/// tentatives", "de" as in "beaucoup de") — that is a real form a translator must write, so the
/// catalogue test requires it.
///
/// Polish is here, though no Polish catalogue ships, to keep the mechanism honest: a language
/// with `few` and `many` for ordinary small counts must work without changing the code.
package struct PluralRule: Sendable {
    /// The BCP 47 primary language subtag the rule is for.
    package let languageCode: String
    /// Every category ``category(for:)`` can answer for some whole number, plus `other`,
    /// which CLDR requires of every language (Polish uses it for fractions only).
    package let categories: Set<PluralCategory>
    private let decide: @Sendable (UInt) -> PluralCategory

    /// The rule of `languageCode` (`"fr"`), or nil for a language without a rule here.
    package init?(languageCode: String) {
        switch languageCode.lowercased() {
        case "en", "de", "nl":
            // one: i = 1 and v = 0
            self.init(languageCode, [.one, .other]) { $0 == 1 ? .one : .other }
        case "es":
            // one: n = 1; many: a multiple of a million
            self.init(languageCode, [.one, .many, .other]) { n in
                n == 1 ? .one : Self.isMillions(n) ? .many : .other
            }
        case "it":
            // one: i = 1 and v = 0; many: a multiple of a million
            self.init(languageCode, [.one, .many, .other]) { n in
                n == 1 ? .one : Self.isMillions(n) ? .many : .other
            }
        case "fr":
            // one: i = 0,1 (French says "0 tentative"); many: a multiple of a million
            self.init(languageCode, [.one, .many, .other]) { n in
                n == 0 || n == 1 ? .one : Self.isMillions(n) ? .many : .other
            }
        case "pl":
            // one: i = 1 and v = 0
            // few: v = 0 and i % 10 = 2..4 and i % 100 != 12..14
            // many: v = 0 and (i != 1 and i % 10 = 0..1, or i % 10 = 5..9, or i % 100 = 12..14)
            // other: fractions only, never a whole number
            self.init(languageCode, [.one, .few, .many, .other]) { n in
                let i = n
                if i == 1 { return .one }
                if (2...4).contains(i % 10), !(12...14).contains(i % 100) { return .few }
                return .many
            }
        default:
            return nil
        }
    }

    private init(_ code: String, _ categories: Set<PluralCategory>, _ decide: @escaping @Sendable (UInt) -> PluralCategory) {
        self.languageCode = code.lowercased()
        self.categories = categories
        self.decide = decide
    }

    /// The category of the whole number `count`. A negative count takes the category of its
    /// magnitude, as CLDR's operands do (`n` and `i` are absolute values).
    package func category(for count: Int) -> PluralCategory {
        decide(count.magnitude)
    }

    /// `i != 0 and i % 1000000 = 0` for a whole number.
    private static func isMillions(_ n: UInt) -> Bool {
        n != 0 && n % 1_000_000 == 0
    }
}
