import Foundation
import SCAClient
import Testing

/// Payments signed by the device's keys, bound to amount and payee.
@Suite struct PaymentTests {
    static let transaction = Transaction(
        amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR7630006000011234567890189"))

    @Test func paymentWithDeviceAndBiometryKeys() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("ka@example.com")
            let client = server.client()
            _ = try await server.activate(client, for: userID)
            let collector = ScriptedCollector(.init())

            let tokens = try await client.pay(Self.transaction, using: collector)

            #expect(tokens.operation == .payment)
            #expect(tokens.amr == [.deviceKey, .biometricKey])
            #expect(tokens.refreshToken == nil)
            guard case .confirm(let display) = collector.events.first else {
                Issue.record("the payment was not confirmed first: \(collector.events)")
                return
            }
            #expect(display.amount == "125.00")
            #expect(display.currency == "EUR")
            #expect(display.payee == "ACME SAS")
            #expect(collector.events.last == .biometricGate("Approve paying 125.00 EUR to ACME SAS"))
            let introspection = try await client.introspect(tokens.accessToken, transaction: Self.transaction)
            #expect(introspection.active)
            #expect(introspection.op == .payment)
            // Another payee is another transaction: the token is not for it.
            var other = Self.transaction
            other.payee.name = "EVIL SAS"
            #expect(try await client.introspect(tokens.accessToken, transaction: other).active == false)
            // A payment token opens no session.
            await #expect(throws: SCAClientError.notSignedIn) { try await client.validAccessToken() }
        }
    }

    @Test func signedInUserWithoutDevicePaysWithTypedFactors() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("qa@example.com")
            let totp = try await server.enrollTOTP(userID)
            let client = server.client()
            let script = ScriptedCollector.Script(choices: [.totp, .totp], code: { _, _ in server.nextCode(totp) })
            await #expect(throws: SCAClientError.notSignedIn) { try await client.pay(Self.transaction, using: ScriptedCollector(script)) }
            _ = try await client.logIn(email: "qa@example.com", using: ScriptedCollector(script), prefill: [.password: Harness.password])

            let collector = ScriptedCollector(script)
            let tokens = try await client.pay(Self.transaction, using: collector, prefill: [.password: Harness.password])

            #expect(tokens.amr == [.password, .totp])
            #expect(try await client.introspect(tokens.accessToken, transaction: Self.transaction, consume: true).active)
            // A payment token is accepted once.
            #expect(try await client.introspect(tokens.accessToken, transaction: Self.transaction, consume: true).active == false)
        }
    }

    /// Signed in, a low-value payment is exempt; the SDK returns its token at once
    /// and asks the user nothing; signed out, the same payment needs SCA.
    @Test func exemptLowValuePaymentAsksNothing() async throws {
        try await SDKTestServer { $0.risk.exemptLowValue = true }.run { server in
            let userID = try await server.createUser("lv@example.com")
            let totp = try await server.enrollTOTP(userID)
            let client = server.client()
            let script = ScriptedCollector.Script(choices: [.totp, .totp], code: { _, _ in server.nextCode(totp) })
            _ = try await client.logIn(email: "lv@example.com", using: ScriptedCollector(script), prefill: [.password: Harness.password])
            let coffee = Transaction(amount: "2.50", currency: "EUR", payee: .init(name: "Café du Coin", iban: "FR7630006000011234567890189"))

            let collector = ScriptedCollector(script)
            let tokens = try await client.pay(coffee, using: collector)

            #expect(tokens.exemption == .lowValue)
            #expect(tokens.acr == "psd2.exempt")
            #expect(tokens.amr == [])
            #expect(collector.events.isEmpty)
            let introspection = try await client.introspect(tokens.accessToken, transaction: coffee, consume: true)
            #expect(introspection.active)
            #expect(introspection.exemption == .lowValue)
            #expect(Exemption.lowValue.displayReason == "low-value payment")

            // Over the threshold: the usual confirmation and factors.
            let dear = Transaction(amount: "30.01", currency: "EUR", payee: coffee.payee)
            let strong = try await client.pay(dear, using: collector, prefill: [.password: Harness.password])
            #expect(strong.exemption == nil)
            #expect(strong.acr == "psd2.sca")
            guard case .confirm = collector.events.first else {
                Issue.record("the payment was not confirmed: \(collector.events)")
                return
            }
        }
    }

    @Test func decliningThePaymentCancelsTheChallenge() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("la@example.com")
            let client = server.client()
            let binding = try await server.activate(client, for: userID)
            let collector = ScriptedCollector(.init(confirms: false))
            let challenge = try await client.startChallenge(
                for: .payment(Self.transaction), user: UserReference(userId: userID),
                device: DeviceReference(deviceId: binding.deviceId))

            await #expect(throws: SCAClientError.transactionDeclined) {
                try await client.authenticate(challenge: challenge, using: collector)
            }
            #expect(try await server.state(of: challenge.challengeId) == .cancelled)
            // Nothing was signed.
            #expect(collector.events.count == 1)
        }
    }

    /// The SDK sends the NFC form, so its digest is the server's; a spoofed payee
    /// is refused before anything is sent.
    @Test func decomposedPayeeIsPaidInNFCAndSpoofedOneRefusedLocally() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("nfc@example.com")
            let client = server.client()
            _ = try await server.activate(client, for: userID)
            let typed = Transaction(amount: "9.99", currency: "EUR", payee: .init(name: "Cafe\u{301} Lumie\u{300}re"))
            let normalized = try TransactionRules.normalized(typed).get()
            let collector = ScriptedCollector(.init())

            let tokens = try await client.pay(typed, using: collector)

            guard case .confirm(let display) = collector.events.first else {
                Issue.record("the payment was not confirmed first: \(collector.events)")
                return
            }
            #expect(display.payee.unicodeScalars.elementsEqual(normalized.payee.name.unicodeScalars))
            let claims = try await client.introspect(tokens.accessToken, transaction: normalized)
            #expect(claims.active)
            #expect(claims.txn == normalized.digest)
            #expect(claims.txn != typed.digest, "the raw decomposed form would digest differently")

            let asked = collector.events.count
            let spoofed = Transaction(amount: "9.99", currency: "EUR", payee: .init(name: "\u{202E}SAS EMCA"))
            let error = await #expect(throws: SCAClientError.self) { try await client.pay(spoofed, using: collector) }
            #expect(error?.problemCode == .requestInvalid)
            #expect(error?.description.contains("payee.name") == true)
            #expect(collector.events.count == asked, "nothing asked for the refused payment: \(collector.events)")
        }
    }
}
