import Foundation
import Testing

@testable import SCALocalization

/// A translator's mistakes are caught here, by ``Catalogue/validate()`` and by decoding, with a
/// message that names the file and the key.
@Suite struct CatalogueValidationTests {
    static let english = #"""
        {
          "consent.payment.title": "Pay {amount} to {payee}",
          "attempts": { "one": "{count} attempt left", "other": "{count} attempts left" }
        }
        """#

    func files(_ french: String, english: String = Self.english) -> [Language: Data] {
        var files = Dictionary(uniqueKeysWithValues: Language.allCases.map { ($0, Data(english.utf8)) })
        files[.french] = Data(french.utf8)
        return files
    }

    /// The problems of a catalogue whose French file is `french` and every other is English's
    /// (a copy is a complete, valid catalogue for the check).
    func problems(_ french: String) throws -> [CatalogueProblem] {
        try Catalogue(files: files(french)).validate().filter { $0.language == .french }
    }

    static let goodFrench = #"""
        {
          "consent.payment.title": "Payer {amount} à {payee}",
          "attempts": { "one": "{count} tentative restante", "many": "{count} de tentatives restantes", "other": "{count} tentatives restantes" }
        }
        """#

    @Test func aCorrectFileHasNoProblem() throws {
        #expect(try problems(Self.goodFrench).isEmpty)
    }

    @Test func malformedJSONNamesTheFile() throws {
        let broken = #"{ "consent.payment.title": "Payer {amount} à {payee}" "#
        let error = #expect(throws: CatalogueProblems.self) { try Catalogue(files: files(broken)) }
        let problem = try #require(error?.problems.first)
        guard case .malformedFile = problem.kind else { Issue.record("\(problem)"); return }
        #expect(problem.language == .french)
        #expect(problem.description.hasPrefix("fr.json: not a JSON object of strings"))
    }

    /// A translator's editor counts lines, not characters: the place is said as line and column.
    @Test func malformedJSONSaysWhere() throws {
        let broken = "{\n  \"a\": \"b\",\n  \"c\" \"d\"\n}"
        let error = #expect(throws: CatalogueProblems.self) { try Catalogue(files: files(broken)) }
        #expect(error?.description.contains("line 3") == true, "\(String(describing: error))")
    }

    @Test func aValueThatIsNeitherTextNorPluralIsNamed() throws {
        let error = #expect(throws: CatalogueProblems.self) {
            try Catalogue(files: files(#"{ "consent.payment.title": 42, "attempts": { "one": "x", "several": "y", "other": 3 } }"#))
        }
        let kinds = error?.problems.map(\.kind) ?? []
        #expect(kinds.contains(.invalidValue))
        #expect(kinds.contains(.unknownPluralCategory("several")))
        #expect(kinds.contains(.invalidPluralForm("other")))
        #expect(error?.description.contains(#"fr.json, "consent.payment.title": the value must be a string"#) == true)
    }

    @Test func aMisspeltPlaceholderIsCaught() throws {
        let typo = Self.goodFrench.replacingOccurrences(of: "Payer {amount}", with: "Payer {amont}")
        let found = try problems(typo)
        #expect(found.map(\.kind) == [.placeholders(expected: ["amount", "payee"], found: ["amont", "payee"])])
        #expect(found.first?.key == "consent.payment.title")
        #expect(
            found.first?.description
                == #"fr.json, "consent.payment.title": placeholders differ from English: missing {amount}, unknown {amont}"#)
    }

    @Test func aForgottenPlaceholderInOnePluralFormIsCaught() throws {
        let forgot = Self.goodFrench.replacingOccurrences(of: "\"{count} tentative restante\"", with: "\"une tentative restante\"")
        #expect(try problems(forgot).map(\.kind) == [.placeholders(expected: ["count"], found: [])])
    }

    @Test func bracesThatMakeNoPlaceholderAreCaught() throws {
        for (text, reason) in [
            ("Payer {amount} à {payee", "is not closed"), ("Payer amount} à {payee}", "closes no placeholder"),
            ("Payer { amount } à {payee}", "is not a placeholder name"), ("Payer {} à {payee}", "is not a placeholder name"),
        ] {
            let file = Self.goodFrench.replacingOccurrences(of: "Payer {amount} à {payee}", with: text)
            let found = try problems(file)
            #expect(found.contains { if case .malformedPlaceholder(let r) = $0.kind { r.contains(reason) } else { false } }, "\(text)")
        }
    }

    @Test func pluralFormsMustBeTheLanguagesCategories() throws {
        // French needs `many` (a million attempts); `few` is not a French category.
        let wrong = Self.goodFrench.replacingOccurrences(of: "\"many\"", with: "\"few\"")
        #expect(
            try problems(wrong).map(\.kind) == [.pluralCategories(expected: [.one, .many, .other], found: [.one, .few, .other])])
    }

    @Test func missingAndMisspeltKeysAreCaught() throws {
        let file = #"""
            {
              "consent.payment.titel": "Payer {amount} à {payee}",
              "attempts": { "one": "{count} tentative", "many": "{count} de tentatives", "other": "{count} tentatives" }
            }
            """#
        let found = try problems(file)
        #expect(found.contains(CatalogueProblem(.missingKey, language: .french, key: "consent.payment.title")))
        #expect(found.contains(CatalogueProblem(.unexpectedKey, language: .french, key: "consent.payment.titel")))
    }

    @Test func aPlainStringWhereEnglishHasPluralFormsIsCaught() throws {
        let file = #"{ "consent.payment.title": "Payer {amount} à {payee}", "attempts": "{count} tentatives" }"#
        #expect(try problems(file).map(\.kind) == [.pluralMismatch])
    }

    @Test func aMissingFileIsCaught() throws {
        var files = files(Self.goodFrench)
        files[.dutch] = nil
        #expect(try Catalogue(files: files).validate().filter { $0.kind == .missingFile } == [CatalogueProblem(.missingFile, language: .dutch)])
    }
}
