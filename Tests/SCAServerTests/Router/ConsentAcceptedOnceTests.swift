import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SCACore
import SCAEngine
import Testing

/// The consent page accepts a consent in the write of the proof that completes its challenge.
/// Whatever runs beside that proof, a consent is decided once: the same code sent twice at once
/// accepts it once, and a partner's cancellation racing the last proof leaves the consent either
/// accepted (the cancellation refused) or cancelled (no token kept for the partner), with the
/// trail saying the one that happened, once.
@Suite("Consent page: decided once")
struct ConsentAcceptedOnceTests {
    @Test("the last code twice at once, and the partner's cancellation against the last code: one decision each time")
    func sqlite() async throws {
        try await TestServer(PartnerConsentTests.configure).run { api in try await Self.races(api) }
    }

    @Test(
        "the same on PostgreSQL",
        .enabled(if: ServerPair.databaseURL != nil, "SCA_TEST_POSTGRES_URL not set: PostgreSQL case skipped"))
    func postgres() async throws {
        try await TestServer.runOnPostgres(PartnerConsentTests.configure) { api in try await Self.races(api) }
    }

    static func races(_ api: APIClient) async throws {
        let phone = "+33612345675"
        let partner = try await PartnerFixture.make(api)
        let tokens = try await partner.tokens(email: "race@example.com", phone: phone)
        let accessToken = try #require(tokens["access_token"] as? String)

        // The same code from two tabs of one visit, at once.
        let (twice, browser) = try await consentAtItsLastCode(partner, accessToken: accessToken)
        let code = try api.lastCode(sentTo: phone)
        let page = try await browser.get(twice)
        let form = try #require(PageBrowser.csrf(in: page, action: "\(twice)/proof"))
        async let first = post(api, "\(twice)/proof", cookies: browser.cookies, ["method": "sms_otp", "credential": code, "csrf": form])
        async let second = post(api, "\(twice)/proof", cookies: browser.cookies, ["method": "sms_otp", "credential": code, "csrf": form])
        let answers = try await [first, second]
        #expect(answers.allSatisfy { $0.status == 303 || $0.status == 200 }, "\(answers.map(\.status))")
        let id = String(twice.dropFirst("/consents/".count))
        #expect(try await partner.consent(id, accessToken: accessToken).decode(ConsentResponse.self).status == .accepted)
        #expect(try await decisions(api, consent: id) == ["Created", "Started", "Accepted"])

        // The partner cancels while the user sends the last code: whichever comes first decides.
        // A user each time, so that each gets its code (a phone is sent only so many).
        for round in 0..<4 {
            let phone = "+3361234566\(round)"
            let tokens = try await partner.tokens(email: "race\(round)@example.com", phone: phone)
            let accessToken = try #require(tokens["access_token"] as? String)
            let (path, browser) = try await consentAtItsLastCode(partner, accessToken: accessToken)
            let id = String(path.dropFirst("/consents/".count))
            let code = try api.lastCode(sentTo: phone)
            let page = try await browser.get(path)
            let form = try #require(PageBrowser.csrf(in: page, action: "\(path)/proof"))
            async let proof = post(api, "\(path)/proof", cookies: browser.cookies, ["method": "sms_otp", "credential": code, "csrf": form])
            async let cancel = partner.consent(id, accessToken: accessToken, method: .delete)
            let (proven, cancelled) = try await (proof, cancel)
            let consent = try await partner.consent(id, accessToken: accessToken).decode(ConsentResponse.self)
            let trail = try await decisions(api, consent: id)
            switch consent.status {
            case .accepted:
                #expect(cancelled.status == 409, "the cancellation of an accepted consent is refused")
                #expect(consent.accessToken != nil)
                #expect(trail == ["Created", "Started", "Accepted"])
                #expect(PageBrowser.query(of: proven.headers[.location] ?? "")["status"] == "Accepted")
            case .canceled:
                #expect(cancelled.status == 200)
                #expect(consent.accessToken == nil, "no token is kept for a cancelled consent")
                #expect(trail == ["Created", "Started", "Canceled"])
            default:
                Issue.record("the consent ended \(consent.status), trail \(trail)")
            }
        }
    }

    /// A new payment consent shown, its password given and its SMS code sent: the visit's path
    /// and browser.
    static func consentAtItsLastCode(_ partner: PartnerFixture, accessToken: String) async throws -> (String, PageBrowser) {
        let consent = try await partner.paymentConsent(accessToken: accessToken)
        let path = "/consents/\(consent.consentId)"
        let browser = PageBrowser(api: partner.api)
        try await browser.givePasswordAndAskForCode(onConsent: path)
        return (path, browser)
    }

    /// A form post with the visit's cookies, outside the browser (which keeps one request at a time).
    static func post(_ api: APIClient, _ path: String, cookies: [String: String], _ fields: [String: String]) async throws -> APIResponse {
        let body = fields.map { "\(RedirectURIRules.formEncoded($0.key))=\(RedirectURIRules.formEncoded($0.value))" }.joined(separator: "&")
        let headers: HTTPFields = [
            .contentType: "application/x-www-form-urlencoded",
            .cookie: cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "),
        ]
        let response = try await api.client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    }

    /// The statuses the consent's trail records, in order.
    static func decisions(_ api: APIClient, consent id: String) async throws -> [String] {
        try await api.services.store.auditEntries(after: 0, limit: 10_000)
            .filter { $0.draft.event == "consent.changed" && $0.draft.details["consentId"] == id }
            .compactMap { $0.draft.details["to"] }
    }
}
