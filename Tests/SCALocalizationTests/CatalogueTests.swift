import Foundation
import Testing

@testable import SCALocalization

/// The shipped catalogue: complete in every language, and looked up as pages will.
@Suite struct CatalogueTests {
    let catalogue: Catalogue

    init() throws { catalogue = try Catalogue.bundled() }

    /// Every key in every language, the same placeholders as English, plural forms exactly
    /// the language's CLDR categories, braces that parse. One line per mistake on failure.
    @Test func shippedCatalogueIsComplete() {
        let problems = catalogue.validate()
        #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n"))")
    }

    @Test func everyLanguageHasItsFile() {
        #expect(Set(Catalogue.bundledFiles().keys) == Set(Language.allCases))
        for language in Language.allCases {
            #expect((catalogue.entries[language]?.count ?? 0) > 200, "\(language)")
        }
    }

    /// Plural entries carry a count: each has at least `one` and `other` in English.
    @Test func pluralEntriesHaveOneAndOther() {
        for (key, entry) in catalogue.entries[.english] ?? [:] {
            if case .plural(let forms) = entry {
                #expect(forms[.one] != nil && forms[.other] != nil, "\(key)")
            }
        }
    }

    /// A translation that were the English word for word would mean no one translated it. Names
    /// and a few words that are the same in several languages (PIN, IBAN, Passkey) are allowed.
    @Test func translationsAreNotEnglishCopies() {
        let english = catalogue.entries[.english] ?? [:]
        let same = ["language.", "terminal.method.pin", "factor.pin.label", "consent.detail.iban", "terminal.factor.pinPrompt",
            "message.push.fromPartner", "terminal.operation.iban", "terminal.payment.iban", "signup.phone.example",
            "factor.passkey.heading", "terminal.failure.notAccepted", "consent.finished.open.heading", "terminal.totp.code",
            "terminal.login.emailPrompt", "terminal.login.emailPromptRemembered", "signin.email.label", "date.month.", "problem.",
            "terminal.recovery.puk", "account.details.pin", "account.details.password", "account.pending.code",
            "console.user.column.partner", "console.partner.webhook", "console.nav.partners", "console.partners.title",
            "console.partner.scopes"]
        for language in Language.allCases where language != .english {
            let own = catalogue.entries[language] ?? [:]
            let copies = english.keys.filter { key in
                !same.contains(where: { key.hasPrefix($0) }) && own[key] == english[key]
            }
            #expect(copies.count <= 12, "\(language): \(copies.sorted())")
        }
    }

    @Test func paymentTextsNameAmountAndPayee() {
        let values = ["amount": "€1,250.00", "payee": "Alice Martin", "code": "123456", "minutes": "5"]
        for language in Language.allCases {
            for key in ["message.code.payment", "message.push.payment", "operation.payment"] {
                let text = catalogue.text(key, in: language, values: values)
                #expect(text.contains("€1,250.00") && text.contains("Alice Martin"), "\(language) \(key): \(text)")
            }
        }
    }

    @Test func placeholdersAreFilled() {
        let localizer = Localizer(catalogue: catalogue, language: .german)
        let amount = localizer.amount("1250.00", currency: "EUR")
        #expect(localizer.text("operation.payment", ["amount": amount, "payee": "Alice Martin"])
            == "1.250,00\u{00A0}€ an Alice Martin zahlen")
    }

    @Test func pluralFormsFollowTheLanguagesRule() {
        // French puts 0 with 1; English does not.
        #expect(catalogue.text("factor.error.attemptsLeft", count: 0, in: .french).hasPrefix("0 tentative "))
        #expect(catalogue.text("factor.error.attemptsLeft", count: 0, in: .english).hasPrefix("0 attempts "))
        #expect(catalogue.text("factor.error.attemptsLeft", count: 1, in: .english).hasPrefix("1 attempt "))
        #expect(catalogue.text("factor.error.attemptsLeft", count: 3, in: .german).hasPrefix("Noch 3 Versuche"))
        // The count is written as the language writes numbers.
        #expect(catalogue.text("factor.error.attemptsLeft", count: 1_000_000, in: .french).contains("1\u{202F}000\u{202F}000 de tentatives"))
    }

    @Test func everyLanguageNamesItselfTheSameEverywhere() {
        let names = ["en": "English", "fr": "Français", "de": "Deutsch", "es": "Español", "it": "Italiano", "nl": "Nederlands"]
        for language in Language.allCases {
            for (code, name) in names {
                #expect(catalogue.text("language.name.\(code)", in: language) == name)
            }
        }
    }

    // MARK: Lookups that must not fail

    @Test func aKeyMissingFromALanguageFallsBackToEnglish() {
        let partial = Catalogue(entries: [.english: ["a": .text("Hello {name}")], .french: [:]])
        #expect(partial.text("a", in: .french, values: ["name": "Ana"]) == "Hello Ana")
    }

    @Test func anUnknownKeyReadsAsItself() {
        #expect(catalogue.text("no.such.key", in: .italian) == "no.such.key")
        #expect(catalogue.text("no.such.key", count: 3, in: .italian) == "no.such.key")
        #expect(Catalogue(entries: [:]).text("x", in: .dutch) == "x")
    }

    @Test func aMissingValueLeavesItsPlaceholderVisible() {
        #expect(catalogue.text("operation.payment", in: .english, values: ["amount": "€5.00"]) == "Pay €5.00 to {payee}")
    }

    @Test func pluralAskedWithoutCountGivesOther() {
        #expect(catalogue.text("factor.error.attemptsLeft", in: .english, values: ["count": "2"]).hasPrefix("2 attempts"))
    }

    @Test func aPluralMissingItsCategoryUsesOther() {
        let partial = Catalogue(entries: [.english: ["n": .plural([.other: "{count} things"])]])
        #expect(partial.text("n", count: 1, in: .english) == "1 things")
    }
}
