import Testing

@testable import SCALocalization

/// The terminal app's language, chosen from the environment as POSIX programs choose theirs.
@Suite struct EnvironmentLanguageTests {
    func language(_ environment: [String: String]) -> Language {
        LocaleNegotiation.language(environment: environment)
    }

    @Test func langAloneDecides() {
        #expect(language(["LANG": "de_DE.UTF-8"]) == .german)
        #expect(language(["LANG": "fr_BE"]) == .french)
        #expect(language(["LANG": "nl"]) == .dutch)
    }

    @Test func theTerritoryCodesetAndModifierDoNotCount() {
        #expect(language(["LANG": "de_AT.UTF-8"]) == .german)
        #expect(language(["LANG": "it_IT@euro"]) == .italian)
        #expect(language(["LANG": "es_ES.ISO-8859-15@euro"]) == .spanish)
        #expect(language(["LANG": "FR_fr.utf8"]) == .french)
    }

    @Test func lcAllBeatsLCMessagesAndLang() {
        #expect(language(["LC_ALL": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"]) == .french)
        #expect(language(["LC_ALL": "it_IT.UTF-8", "LC_MESSAGES": "nl_NL.UTF-8", "LANG": "de_DE.UTF-8"]) == .italian)
    }

    @Test func lcMessagesBeatsLang() {
        #expect(language(["LC_MESSAGES": "es_ES.UTF-8", "LANG": "de_DE.UTF-8"]) == .spanish)
    }

    /// Set but empty counts as unset, as in POSIX.
    @Test func anEmptyVariableIsPassedOver() {
        #expect(language(["LC_ALL": "", "LC_MESSAGES": "", "LANG": "nl_BE.UTF-8"]) == .dutch)
    }

    @Test func thePlainLocaleIsEnglish() {
        #expect(language(["LANG": "C"]) == .english)
        #expect(language(["LANG": "POSIX"]) == .english)
        #expect(language(["LANG": "C.UTF-8"]) == .english)
        // The plain locale in LC_ALL wins over a language in LANG: the user asked for it.
        #expect(language(["LC_ALL": "C", "LANG": "de_DE.UTF-8"]) == .english)
    }

    @Test func unsetIsEnglish() {
        #expect(language([:]) == .english)
        #expect(language(["LANGUAGE": "de", "LC_TIME": "fr_FR.UTF-8"]) == .english)
    }

    /// The first variable set decides, even when it names a language that does not ship: what
    /// follows it is not read.
    @Test func anUnknownLanguageIsEnglish() {
        #expect(language(["LANG": "pt_BR.UTF-8"]) == .english)
        #expect(language(["LC_ALL": "ja_JP.UTF-8", "LANG": "de_DE.UTF-8"]) == .english)
        #expect(language(["LANG": ".UTF-8"]) == .english)
    }
}
