import Foundation
import Testing

@testable import SCACore

/// The `authorization_details` a partner sends, checked into what the user is shown and the
/// proofs bind: normalised as a payment's transaction is, and refused for anything the page
/// could not show.
@Suite struct AuthorizationDetailsRulesTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let both = AuthorizationDetail.knownTypes

    /// The example payment of RFC 9396 §1.1, with a creditor account (required here).
    let rfcExample = """
        [{"type":"payment_initiation","actions":["initiate","status","cancel"],"locations":["https://example.com/payments"],\
        "instructedAmount":{"currency":"EUR","amount":"123.50"},"creditorName":"Merchant A",\
        "creditorAccount":{"iban":"DE02100100109307118603"},"remittanceInformationUnstructured":"Ref Number Merchant"}]
        """

    @Test func theRFCExamplePaymentIsOneTransaction() throws {
        let detail = try AuthorizationDetailsRules.parse(rfcExample, allowedTypes: both, now: now).get()
        #expect(detail.operation == .payment)
        #expect(
            detail.transaction
                == Transaction(
                    amount: "123.50", currency: "EUR", payee: .init(name: "Merchant A", iban: "DE02100100109307118603"),
                    reference: "Ref Number Merchant"))
    }

    @Test func aPaymentIsNormalisedAsATransactionIs() throws {
        let text = #"[{"type":"payment_initiation","instructedAmount":{"currency":"EUR","amount":"5.00"},"creditorName":"Cafe\#u{301}","creditorAccount":{"iban":"de02 1001 0010 9307 1186 03"}}]"#
        let transaction = try #require(try AuthorizationDetailsRules.parse(text, allowedTypes: both, now: now).get().transaction)
        #expect(transaction.payee.iban == "DE02100100109307118603")
        #expect(transaction.payee.name == "Caf\u{E9}", "NFC, as the digest binds it")
    }

    @Test func theWireFormRoundTripsThroughStorage() throws {
        let detail = try AuthorizationDetailsRules.parse(rfcExample, allowedTypes: both, now: now).get()
        let encoded = try JSONEncoder().encode([detail])
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [[String: Any]])
        #expect(object[0]["type"] as? String == "payment_initiation")
        #expect((object[0]["instructedAmount"] as? [String: String]) == ["amount": "123.50", "currency": "EUR"])
        #expect(try JSONDecoder().decode([AuthorizationDetail].self, from: encoded) == [detail])
    }

    @Test func accountAccessEndsWithin180Days() throws {
        func access(_ until: Date) -> Result<AuthorizationDetail, AuthorizationDetailsRules.Violation> {
            let text = #"[{"type":"account_information","accounts":[{"iban":"DE02100100109307118603"}],"access":["transactions"],"validUntil":"\#(ISO8601DateFormatter().string(from: until))"}]"#
            return AuthorizationDetailsRules.parse(text, allowedTypes: both, now: now)
        }
        let day: TimeInterval = 86_400
        guard case .accountInformation(let granted) = try access(now.addingTimeInterval(180 * day)).get() else {
            Issue.record("not account information")
            return
        }
        #expect(granted.expiry == now.addingTimeInterval(180 * day))
        #expect(granted.accounts == ["DE02100100109307118603"])
        #expect(throws: AuthorizationDetailsRules.Violation.self) { try access(now.addingTimeInterval(180 * day + 1)).get() }
        #expect(throws: AuthorizationDetailsRules.Violation.self) { try access(now).get() }
    }

    @Test func whatThePageCouldNotShowIsRefused() {
        for text in [
            "", "[]", "null", #"[{"type":"payment_initiation"}]"#,
            #"[{"type":"payment_initiation","instructedAmount":{"currency":"EUR","amount":"1.00","fx":"1.1"},"creditorName":"A","creditorAccount":{"iban":"DE02100100109307118603"}}]"#,
            #"[{"type":"payment_initiation","instructedAmount":{"currency":"EUR","amount":"1.00"},"creditorName":"A\#u{202E}B","creditorAccount":{"iban":"DE02100100109307118603"}}]"#,
            #"[{"type":"payment_initiation","actions":["status"],"instructedAmount":{"currency":"EUR","amount":"1.00"},"creditorName":"A","creditorAccount":{"iban":"DE02100100109307118603"}}]"#,
            #"[{"type":"payment_initiation","locations":["http://rs.example"],"instructedAmount":{"currency":"EUR","amount":"1.00"},"creditorName":"A","creditorAccount":{"iban":"DE02100100109307118603"}}]"#,
            #"[{"type":"account_information","accounts":[{"iban":"DE02100100109307118603"},{"iban":"de02100100109307118603"}],"access":["balances"],"validUntil":"2027-01-01T00:00:00Z"}]"#,
            #"[{"type":"account_information","accounts":[{"iban":"DE02100100109307118603"}],"access":["payments"],"validUntil":"2027-01-01T00:00:00Z"}]"#,
            "[" + String(repeating: " ", count: 2_100) + "]",
        ] {
            #expect(throws: AuthorizationDetailsRules.Violation.self, "\(text.prefix(80))") {
                try AuthorizationDetailsRules.parse(text, allowedTypes: both, now: now).get()
            }
        }
    }

    @Test func onlyTheClientsTypes() {
        #expect(throws: AuthorizationDetailsRules.Violation("this client may not ask for payment_initiation")) {
            try AuthorizationDetailsRules.parse(rfcExample, allowedTypes: ["account_information"], now: now).get()
        }
    }
}
