import Foundation
import SCACore
import SCAEngine
import Testing

/// The consent page in each shipped language, in a real headless Chromium, at a phone's width
/// and a laptop's: nothing wider than the window, no word cut off, German's long compounds
/// wrapped, and no accessibility rule of axe-core broken. Screenshots go to
/// /tmp/h9-shots/consent-languages-<language>-<width>.png; docs/images/consent-* are those.
@Suite(
    "The consent page in every language, in a real browser", .serialized,
    .enabled(if: WebDriver.unavailableReason == nil, "\(WebDriver.unavailableReason ?? "")"))
struct LanguageBrowserTests {
    static let languages = ["en", "fr", "de", "es", "it", "nl"]
    static let widths = [(width: 420, height: 1_300), (width: 1_280, height: 1_000)]

    /// axe-core's script: `.ci/run` puts it at `.build/axe-core/axe.min.js`; elsewhere the axe
    /// test says it did not run.
    static var axeScript: String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let file = ProcessInfo.processInfo.environment["SCA_AXE_JS"].map(URL.init(fileURLWithPath:))
            ?? root.appendingPathComponent(".build/axe-core/axe.min.js")
        return try? String(contentsOf: file, encoding: .utf8)
    }

    /// Elements whose content is wider than they are (a word that did not wrap), and how far
    /// the page is wider than the window.
    static let overflowScript = """
        var wide = [];
        document.querySelectorAll("main *, nav *, header, footer").forEach(function (element) {
          if (element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX === "visible"
              && element.clientWidth > 0) {
            wide.push(element.tagName + "." + element.className + ": " + element.textContent.trim().slice(0, 60));
          }
        });
        return { wide: wide, beyond: document.documentElement.scrollWidth - window.innerWidth };
        """

    /// The payment every screenshot shows: a payee whose name is long in any language.
    static let payment = Transaction(
        amount: "1250.00", currency: "EUR",
        payee: .init(name: "Stadtwerke Donaudampfschifffahrtsgesellschaft", iban: "DE89370400440532013000"),
        reference: "Rechnung 2026-11-0042")

    @Test("the consent page at 420 and 1280 px in en, fr, de, es, it and nl: nothing overflows, the amount is the payment's")
    func consentPageInEveryLanguage() async throws {
        try await BrowserTests().withBrowser("consent-languages") { context in
            let tokens = try await context.partner.tokens(email: "languages@example.com", phone: "+33612340090")
            let accessToken = try #require(tokens["access_token"] as? String)
            let consent = try await context.partner.createConsent(
                CreateConsentRequest(operation: .payment, transaction: Self.payment, consentRedirectUrl: context.partner.consentRedirect),
                accessToken: accessToken
            ).decode(ConsentResponse.self)
            let driver = context.driver
            for language in Self.languages {
                for size in Self.widths {
                    try await driver.setWindow(width: size.width, height: size.height)
                    try await driver.open(context.live(consent.consentUrl) + "?ui_locales=\(language)")
                    #expect(try await driver.execute("return document.documentElement.lang") as? String == language)
                    let text = try await driver.text()
                    #expect(text.contains("Stadtwerke Donaudampfschifffahrtsgesellschaft"), "\(language)")
                    #expect(text.contains("DE89 3704 0044 0532 0130 00"), "\(language)")
                    let layout = try #require(try await driver.execute(Self.overflowScript) as? [String: Any])
                    #expect((layout["wide"] as? [String])?.isEmpty == true, "\(language) \(size.width): \(layout["wide"] ?? "")")
                    #expect((layout["beyond"] as? Int ?? 1) <= 0, "\(language) \(size.width): page wider than the window")
                    try await context.shot("\(language)-\(size.width)")
                }
            }
        }
    }

    @Test(
        "axe-core finds no violation on the consent and sign-in pages in any language",
        .enabled(if: LanguageBrowserTests.axeScript != nil, "axe-core is not installed (.ci/run installs it)"))
    func accessibility() async throws {
        try await BrowserTests().withBrowser("axe") { context in
            let tokens = try await context.partner.tokens(email: "axe@example.com", phone: "+33612340091")
            let consent = try await context.partner.createConsent(
                CreateConsentRequest(operation: .payment, transaction: Self.payment, consentRedirectUrl: context.partner.consentRedirect),
                accessToken: try #require(tokens["access_token"] as? String)
            ).decode(ConsentResponse.self)
            let signIn = context.base + context.partner.authorizePath(challenge: PartnerFixture.pkce().challenge)
            for language in Self.languages {
                for page in [context.live(consent.consentUrl) + "?ui_locales=\(language)", signIn + "&ui_locales=\(language)"] {
                    try await context.driver.open(page)
                    try await FAPIPaymentBrowserTests.expectNoAxeViolation(context.driver, page: "\(language) \(page)")
                }
            }
        }
    }
}
