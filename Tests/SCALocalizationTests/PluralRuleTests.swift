import Testing

@testable import SCALocalization

/// The integer samples of CLDR's plurals.xml (release 42 and later), category by category: the
/// `@integer` lists after each rule, with `1c6` written out as 1000000 and ranges expanded.
@Suite struct PluralRuleTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        let language: String
        let category: PluralCategory
        let integers: [Int]
        var testDescription: String { "\(language) \(category.rawValue)" }
    }

    static let oneOther = [1], otherGermanic = [0] + Array(2...16) + [100, 1000, 10000, 100000, 1_000_000]
    static let millions = [1_000_000, 2_000_000, 3_000_000, 6_000_000, 1_000_000_000]
    static let otherRomance = [0] + Array(2...16) + [100, 1000, 10000, 100000, 2000, 3000, 6000]

    static let samples: [Sample] = [
        // en, de, nl: one: i = 1 and v = 0
        Sample(language: "en", category: .one, integers: oneOther),
        Sample(language: "en", category: .other, integers: otherGermanic),
        Sample(language: "de", category: .one, integers: oneOther),
        Sample(language: "de", category: .other, integers: otherGermanic),
        Sample(language: "nl", category: .one, integers: oneOther),
        Sample(language: "nl", category: .other, integers: otherGermanic),
        // es: one: n = 1; many: e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5
        Sample(language: "es", category: .one, integers: [1]),
        Sample(language: "es", category: .many, integers: millions),
        Sample(language: "es", category: .other, integers: otherRomance),
        // it: one: i = 1 and v = 0; many as Spanish
        Sample(language: "it", category: .one, integers: [1]),
        Sample(language: "it", category: .many, integers: millions),
        Sample(language: "it", category: .other, integers: otherRomance),
        // fr: one: i = 0,1; many as Spanish
        Sample(language: "fr", category: .one, integers: [0, 1]),
        Sample(language: "fr", category: .many, integers: millions),
        Sample(language: "fr", category: .other, integers: Array(2...17) + [100, 1000, 10000, 100000, 2000, 3000, 6000]),
        // pl: one: i = 1 and v = 0; few: v = 0 and i % 10 = 2..4 and i % 100 != 12..14;
        // many: the other whole numbers; other: fractions only
        Sample(language: "pl", category: .one, integers: [1]),
        Sample(
            language: "pl", category: .few,
            integers: Array(2...4) + Array(22...24) + Array(32...34) + Array(42...44) + Array(52...54) + [62, 102, 1002]),
        Sample(
            language: "pl", category: .many,
            integers: [0] + Array(5...19) + [100, 1000, 10000, 100000, 1_000_000, 112, 113, 114, 1012]),
    ]

    @Test(arguments: samples)
    func cldrSamples(_ sample: Sample) throws {
        let rule = try #require(PluralRule(languageCode: sample.language))
        for integer in sample.integers {
            #expect(rule.category(for: integer) == sample.category, "\(sample.language) \(integer)")
        }
        #expect(rule.categories.contains(sample.category))
    }

    @Test func categoriesAreTheOnesCLDRListsPerLanguage() throws {
        let expected: [String: Set<PluralCategory>] = [
            "en": [.one, .other], "de": [.one, .other], "nl": [.one, .other],
            "es": [.one, .many, .other], "it": [.one, .many, .other], "fr": [.one, .many, .other],
            "pl": [.one, .few, .many, .other],
        ]
        for (code, categories) in expected {
            #expect(try #require(PluralRule(languageCode: code)).categories == categories, "\(code)")
        }
    }

    /// Every shipped language has a rule (``Language/pluralRule`` relies on it).
    @Test func everyShippedLanguageHasARule() {
        for language in Language.allCases {
            #expect(PluralRule(languageCode: language.rawValue) != nil, "\(language)")
        }
        #expect(PluralRule(languageCode: "xx") == nil)
    }

    /// CLDR's operands are absolute values: -1 attempt is `one` as 1 is.
    @Test func negativeCountsTakeTheirMagnitudesCategory() {
        #expect(Language.english.pluralRule.category(for: -1) == .one)
        #expect(Language.french.pluralRule.category(for: -2_000_000) == .many)
    }
}
