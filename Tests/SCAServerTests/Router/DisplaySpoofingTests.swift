import Foundation
import SCACore
import Testing

/// Texts a user is shown: a payee or device name that could show other than
/// it reads is refused before anything is written or sent; an accepted one is kept in NFC.
@Suite("Display spoofing")
struct DisplaySpoofingTests {
    static let phone = "+33612345601"

    @Test("a payee with a right-to-left override is refused: no challenge, no SMS")
    func bidiPayee() async throws {
        try await TestServer().run { api in
            _ = try await api.createUser("payer@example.com", phone: Self.phone)
            let spoofed = Transaction(amount: "125.00", currency: "EUR", payee: .init(name: "\u{202E}SAS EMCA"))

            let refused = try await api.post(
                "/v1/challenges",
                CreateChallengeRequest(operation: .payment, user: UserReference(email: "payer@example.com"), transaction: spoofed))

            #expect(refused.status == 400)
            #expect(refused.problem?.code == .requestInvalid)
            #expect(refused.problem?.detail?.contains("payee.name") == true, "\(refused.problem?.detail ?? "")")
            #expect(refused.problem?.detail?.contains("U+202E") == true)
            let events = try await api.services.store.auditEntries(after: 0, limit: 1_000).map(\.draft.event)
            #expect(!events.contains("challenge.created"), "\(events)")
            let outbox = try #require(api.services.outbox)
            #expect(try outbox.messages().isEmpty)

            // Every other bidirectional control and an invisible one, the same way.
            for name in ["ACME\u{2066}SAS", "\u{200F}ACME", "AC\u{200B}ME", "ACME\u{2028}SAS", "ACME\u{00A0}SAS"] {
                var transaction = spoofed
                transaction.payee.name = name
                let answer = try await api.post(
                    "/v1/challenges",
                    CreateChallengeRequest(operation: .payment, user: UserReference(email: "payer@example.com"), transaction: transaction))
                #expect(answer.status == 400, "\(name.unicodeScalars.map(\.value))")
            }
            #expect(try outbox.messages().isEmpty)
        }
    }

    @Test("an accepted payee is stored, digested, shown and sent in NFC; the client's digest agrees")
    func nfcPayee() async throws {
        try await TestServer().run { api in
            _ = try await api.createUser("nfc@example.com", phone: Self.phone)
            let typed = Transaction(amount: "12.50", currency: "EUR", payee: .init(name: "Cafe\u{301} de Paris"), reference: "Fe\u{301}vrier")
            let expected = try TransactionRules.normalized(typed).get()
            #expect(expected.payee.name.unicodeScalars.count == "Café de Paris".unicodeScalars.count)

            let challenge = try await api.startChallenge(.payment, email: "nfc@example.com", transaction: typed)

            #expect(challenge.transactionDigest == expected.digest)
            #expect(challenge.transactionDigest != typed.digest, "the raw decomposed form digests differently")
            let display = try #require(challenge.display)
            #expect(display.payee.unicodeScalars.elementsEqual(expected.payee.name.unicodeScalars))
            #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
            let outbox = try #require(api.services.outbox)
            let sms = try #require(try outbox.messages().last)
            #expect(sms.text.unicodeScalars.elementsEqual(sms.text.precomposedStringWithCanonicalMapping.unicodeScalars))
            #expect(sms.text.contains("Café de Paris"))

            // The token's txn is the NFC digest: introspection with either spelling matches it.
            #expect(try await api.prove(challenge.challengeId, .password, "correct horse battery").status == 200)
            let done = try await api.prove(challenge.challengeId, .smsOTP, try api.lastCode(sentTo: Self.phone))
            let token = try #require(try done.decode(ProofResponse.self).accessToken)
            #expect(try await api.introspect(token, transaction: typed).active)
            #expect(try await api.introspect(token, transaction: expected).active)
        }
    }

    @Test("a device name with a control character is refused and the code stays usable; names are kept in NFC")
    func deviceName() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("phone@example.com")
            let issued = try await api.send(.post, "/admin/v1/users/\(userID)/activations", admin: true)
            let code = try issued.decode(ActivationCodeResponse.self).activationCode
            let device = TestDevice()

            for name in ["Ana's\u{0007}phone", "Ana's\nphone", "\u{202E}enohp s'anA", "Ana\u{200D}phone"] {
                let refused = try await api.post("/v1/devices", try device.registration(code: code, name: name))
                #expect(refused.status == 400, "\(name.unicodeScalars.map(\.value))")
                #expect(refused.problem?.code == .requestInvalid)
                #expect(refused.problem?.detail?.hasPrefix("name must not contain U+") == true, "\(refused.problem?.detail ?? "")")
            }
            #expect(try await api.services.devices.devices(of: userID).isEmpty)

            // Nothing was written: the code still registers, and the name is kept in NFC.
            let registered = try await api.post("/v1/devices", try device.registration(code: code, name: "Te\u{301}le\u{301}phone"))
            #expect(registered.status == 201)
            let stored = try #require(try await api.services.devices.devices(of: userID).first)
            #expect(stored.name.unicodeScalars.map(\.value) == "Téléphone".precomposedStringWithCanonicalMapping.unicodeScalars.map(\.value))
        }
    }

    @Test("an operator's role names follow the same rule")
    func roles() async throws {
        try await TestServer().run { api in
            let refused = try await api.post(
                "/admin/v1/users", CreateUserRequest(email: "role@example.com", password: "correct horse battery", roles: ["ad\u{202E}nim"]),
                admin: true)
            #expect(refused.status == 400)
            #expect(refused.problem?.detail?.hasPrefix("roles must not contain U+202E") == true, "\(refused.problem?.detail ?? "")")
            #expect(try await api.services.users.find("role@example.com") == nil)
        }
    }
}
