import Foundation
import SCACore
import SCAEngine
import SCALocalization
import SCAStorage
import Testing

/// Every message a person receives goes out in their language: the one stored on their
/// account, else the configured default; times in their stored zone, else UTC, said either way.
@Suite("Messages in the recipient's language")
struct LocalizedMessageTests {
    /// An amount with grouping in every language (Spanish and Italian group from 10 000 on).
    static let payment = Transaction(
        amount: "12345678.90", currency: "EUR", payee: .init(name: "Müller & Søn SAS", iban: "FR7630006000011234567890189"))

    /// A payment this large needs no third category here, so that password and SMS code do.
    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.highValuePaymentThreshold = "100000000.00"
    }

    /// How each language writes the amount's separators (CLDR), written out here rather than
    /// asked of the code under test.
    static let separators: [Language: (grouping: String, decimal: String)] = [
        .english: (",", "."), .french: ("\u{202F}", ","), .german: (".", ","), .spanish: (".", ","), .italian: (".", ","),
        .dutch: (".", ","),
    ]

    /// The sentence that only that language's code message has.
    static let codeWords: [Language: String] = [
        .english: "is your code", .french: "est votre code", .german: "ist Ihr Code", .spanish: "es su código",
        .italian: "è il Suo codice", .dutch: "is uw code",
    ]

    static func setProfile(_ api: APIClient, _ userID: String, _ request: ProfileRequest) async throws -> APIResponse {
        try await api.send(.put, "/admin/v1/users/\(userID)/profile", body: try WireJSON.encoder().encode(request), admin: true)
    }

    /// The text of the newest message sent to `address`, once the background delivery is done.
    static func lastMessage(_ api: APIClient, to address: String) async throws -> String {
        await api.services.messages.waitUntilIdle()
        return try #require(try api.services.outbox?.messages().last { $0.to == address }).text
    }

    /// The SMS code message of a payment challenge for `email`.
    static func paymentCode(_ api: APIClient, email: String, phone: String) async throws -> String {
        let challenge = try await api.startChallenge(.payment, email: email, transaction: Self.payment)
        #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
        return try await lastMessage(api, to: phone)
    }

    @Test("in each language a payment's SMS code names the exact amount, digit for digit, and the payee as given", arguments: Language.allCases)
    func paymentCodeNamesAmountAndPayee(language: Language) async throws {
        try await TestServer(Self.configure).run { api in
            let phone = "+3361234570\(Language.allCases.firstIndex(of: language) ?? 0)"
            let email = "pay-\(language.rawValue)@example.com"
            let userID = try await api.createUser(email, phone: phone)
            #expect(try await Self.setProfile(api, userID, ProfileRequest(locale: language.rawValue)).status == 200)
            let text = try await Self.paymentCode(api, email: email, phone: phone)

            #expect(text.contains(try #require(Self.codeWords[language])), "\(text)")
            #expect(text.contains("Müller & Søn SAS"), "\(text)")
            #expect(text.contains("FR76…0189"), "\(text)")
            #expect(text.contains("€"), "\(text)")
            // The amount as written, read back: drop the grouping, the decimal separator to `.`.
            let (grouping, decimal) = try #require(Self.separators[language])
            let pattern = "[0-9][0-9\(NSRegularExpression.escapedPattern(for: grouping))]*"
                + NSRegularExpression.escapedPattern(for: decimal) + "[0-9]+"
            let written = try #require(text.range(of: pattern, options: .regularExpression).map { String(text[$0]) }, "\(text)")
            let digits = written.replacingOccurrences(of: grouping, with: "").replacingOccurrences(of: decimal, with: ".")
            #expect(digits == Self.payment.amount, "\(written) in \(text)")
            #expect(written.contains(grouping), "\(written): grouped as \(language) groups")
            // The code is still the message's first six characters, as the tests and apps read it.
            let codeFirst = text.prefix(6).allSatisfy(\.isNumber)
            #expect(codeFirst, "\(text)")
        }
    }

    @Test("the stored language picks the message's; without one the configured default; an unknown one is refused and changes nothing")
    func storedLanguageOrDefault() async throws {
        try await TestServer {
            Self.configure(&$0)
            $0.defaultLanguage = .french
        }.run { api in
            let german = try await api.createUser("de@example.com", phone: "+33612345711")
            #expect(try await Self.setProfile(api, german, ProfileRequest(locale: "de-AT")).status == 200)
            let germanText = try await Self.paymentCode(api, email: "de@example.com", phone: "+33612345711")
            #expect(germanText.contains("ist Ihr Code für die Zahlung von 12.345.678,90\u{00A0}€ an Müller & Søn SAS"), "\(germanText)")

            // No stored language: the configured default, French.
            _ = try await api.createUser("none@example.com", phone: "+33612345712")
            let defaultText = try await Self.paymentCode(api, email: "none@example.com", phone: "+33612345712")
            #expect(defaultText.contains("est votre code pour payer 12\u{202F}345\u{202F}678,90\u{00A0}€ à Müller & Søn SAS"), "\(defaultText)")

            // A language the server does not write in is refused, and the stored one stays.
            for locale in ["tlh", "pt-BR", "de AT", "x", "de--AT"] {
                let refused = try await Self.setProfile(api, german, ProfileRequest(name: "Grete", locale: locale))
                #expect(refused.status == 400, "\(locale)")
                #expect(refused.problem?.code == .requestInvalid)
                #expect(refused.problem?.detail?.contains("locale") == true, "\(refused.problem?.detail ?? "")")
            }
            let user = try #require(try await api.services.users.find(german))
            #expect(user.profile.locale == "de")
            #expect(user.profile.name == nil)
            let stillGerman = try await Self.paymentCode(api, email: "de@example.com", phone: "+33612345711")
            #expect(stillGerman.contains("ist Ihr Code"), "\(stillGerman)")

            // Cleared: the default again.
            #expect(try await Self.setProfile(api, german, ProfileRequest(locale: "")).status == 200)
            let cleared = try await Self.paymentCode(api, email: "de@example.com", phone: "+33612345711")
            #expect(cleared.contains("est votre code"), "\(cleared)")
        }
    }

    @Test("the lockout alert gives its time in the stored zone with the offset said, or in UTC")
    func lockoutAlertTime() async throws {
        try await TestServer {
            $0.policies[.login] = OperationPolicy(verdict: .immediate)
            $0.lockout.maxTemporaryBlocks = 1
        }.run { api in
            // The clock stands at 2027-01-15 08:00 UTC; the first block runs 15 minutes.
            let berlin = try await api.createUser("berlin@example.com", phone: "+33612345721")
            #expect(try await Self.setProfile(api, berlin, ProfileRequest(locale: "de", zoneinfo: "Europe/Berlin")).status == 200)
            let kolkata = try await api.createUser("kolkata@example.com", phone: "+33612345722")
            #expect(try await Self.setProfile(api, kolkata, ProfileRequest(zoneinfo: "Asia/Kolkata")).status == 200)
            _ = try await api.createUser("utc@example.com", phone: "+33612345723")
            for email in ["berlin@example.com", "kolkata@example.com", "utc@example.com"] {
                let challenge = try await api.startChallenge(email: email)
                for _ in 0..<5 { try await api.prove(challenge.challengeId, .password, "wrong password!") }
            }
            let inBerlin = try await Self.lastMessage(api, to: "+33612345721")
            #expect(inBerlin.contains("bis zum 15. Januar 2027 um 09:15 UTC+1 gesperrt"), "\(inBerlin)")
            let inKolkata = try await Self.lastMessage(api, to: "+33612345722")
            #expect(inKolkata.contains("blocked until 15 January 2027 at 13:45 UTC+5:30"), "\(inKolkata)")
            let inUTC = try await Self.lastMessage(api, to: "utc@example.com")
            #expect(inUTC.contains("blocked until 15 January 2027 at 08:15 UTC after"), "\(inUTC)")
        }
    }

    @Test("a phone's push for a payment is in the user's language, with the amount as that language writes it")
    func pushInLanguage() async throws {
        try await TestServer().run { api in
            let (userID, _) = try await api.userWithPhone("push-it@example.com")
            #expect(try await Self.setProfile(api, userID, ProfileRequest(locale: "it")).status == 200)
            let created = try await api.createOperation(OperationFlowTests.paymentRequest(userID))
            #expect(created.status == 201)
            await api.services.messages.waitUntilIdle()
            let pushed = try #require(try api.services.outbox?.messages().last { $0.channel == .push })
            #expect(pushed.text == "Approvare il pagamento di 125,00\u{00A0}€ a ACME SAS?")
        }
    }

    @Test("a partner's request for a new beneficiary is worded in the user's language, the IBAN whole")
    func partnerBeneficiaryInLanguage() async throws {
        try await TestServer().run { api in
            let partner = try await PartnerFixture.make(api)
            let tokens = try await partner.tokens(email: "nl@example.com", phone: "+33612345731")
            let accessToken = try #require(tokens["access_token"] as? String)
            let userID = try #require(try await api.services.users.find("nl@example.com")).id
            #expect(try await Self.setProfile(api, userID, ProfileRequest(locale: "nl")).status == 200)
            let created = try await partner.createConsent(
                CreateConsentRequest(
                    operation: .beneficiaryAdd, beneficiary: .init(name: "Bob", iban: "DE89370400440532013000"),
                    consentRedirectUrl: PartnerFixture.consentRedirect),
                accessToken: accessToken)
            let consent = try created.decode(ConsentResponse.self)
            let browser = PageBrowser(api: api)
            let path = "/consents/\(consent.consentId)"
            try await browser.givePasswordAndAskForCode(onConsent: path)
            let sms = try await Self.lastMessage(api, to: "+33612345731")
            #expect(sms.contains("Shop vraagt u om Bob (DE89 3704 0044 0532 0130 00) toe te voegen als vertrouwde begunstigde"), "\(sms)")
        }
    }

    @Test("a sign-up's code is in the language it asked for; a known user's notice in the language on their account")
    func signUpAndNoticeLanguages() async throws {
        try await TestServer { $0.signUp.mode = .email }.run { api in
            let started = try await api.post("/v1/signup-or-in", SignUpOrInRequest(email: "neu@example.com", locale: "es-MX"))
            #expect(started.status == 201)
            let challenge = try started.decode(ChallengeResponse.self)
            #expect(try await api.sendCode(challenge.challengeId, .emailOTP).status == 202)
            let code = try await Self.lastMessage(api, to: "neu@example.com")
            #expect(code.contains("es su código para iniciar sesión"), "\(code)")

            // A known user whose e-mail codes are off gets a notice instead, in their own language.
            let known = try await api.createUser("bekannt@example.com", emailCodes: false)
            #expect(try await Self.setProfile(api, known, ProfileRequest(locale: "de")).status == 200)
            let typed = try await api.post("/v1/signup-or-in", SignUpOrInRequest(email: "bekannt@example.com", locale: "en"))
            #expect(typed.status == 201)
            #expect(try await api.sendCode(try typed.decode(ChallengeResponse.self).challengeId, .emailOTP).status == 202)
            let notice = try await Self.lastMessage(api, to: "bekannt@example.com")
            #expect(notice.hasPrefix("Jemand hat versucht"), "\(notice)")
        }
    }
}
