import Testing

@testable import SCALocalization

@Suite struct LocaleNegotiationTests {
    func choose(ui: String? = nil, stored: String? = nil, accept: String? = nil, default fallback: Language = .english) -> Language {
        LocaleNegotiation.language(uiLocales: ui, stored: stored, acceptLanguage: accept, default: fallback)
    }

    @Test func uiLocalesBeatAcceptLanguage() {
        #expect(choose(ui: "de", accept: "fr") == .german)
    }

    @Test func uiLocalesBeatTheStoredLanguage() {
        #expect(choose(ui: "nl-BE", stored: "it", accept: "fr") == .dutch)
    }

    @Test func theFirstShippedUILocaleWins() {
        #expect(choose(ui: "pt-BR ja es-MX fr") == .spanish)
    }

    @Test func storedLanguageBeatsAcceptLanguage() {
        #expect(choose(stored: "it", accept: "fr, de;q=0.5") == .italian)
    }

    @Test func unknownUILocalesAndStoredFallThroughToAcceptLanguage() {
        #expect(choose(ui: "pt ja", stored: "sv", accept: "nl") == .dutch)
    }

    @Test func qValuesOrderTheRanges() {
        #expect(choose(accept: "en;q=0.3, de;q=0.9, fr;q=0.7") == .german)
        #expect(choose(accept: "es;q=0.1, it") == .italian)
        // Equal q-values keep the header's order.
        #expect(choose(accept: "nl;q=0.5, fr;q=0.5") == .dutch)
    }

    @Test func regionFallsBackToItsLanguage() {
        #expect(choose(accept: "fr-BE") == .french)
        #expect(choose(accept: "de_CH") == .german)
        #expect(choose(accept: "pt-PT, fr-CA;q=0.8") == .french)
    }

    @Test func qZeroRefusesALanguage() {
        #expect(choose(accept: "fr;q=0, de;q=0.4") == .german)
        #expect(choose(accept: "fr;q=0", default: .french) == .french)  // nothing accepted: the default
    }

    @Test func starStandsForTheDefault() {
        #expect(choose(accept: "pt, *;q=0.5", default: .italian) == .italian)
        // Unless the default is refused: then the first shipped language not refused.
        #expect(choose(accept: "en;q=0, *", default: .english) == .french)
    }

    @Test func unknownFallsBackToTheDefault() {
        #expect(choose(accept: "pt-BR, ja;q=0.8", default: .german) == .german)
        #expect(choose(default: .spanish) == .spanish)
        #expect(choose(ui: "", stored: "", accept: "", default: .dutch) == .dutch)
        #expect(choose(accept: ";;,,q=, ;q=abc", default: .french) == .french)
    }

    @Test func tagsAreCaseInsensitive() {
        #expect(choose(ui: "DE-at") == .german)
        #expect(choose(accept: "NL") == .dutch)
    }
}
