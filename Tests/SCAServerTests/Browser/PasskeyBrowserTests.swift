import Foundation
import Hummingbird
import SCACore
import SCAServer
import Testing

/// Passkeys end to end in a real headless Chromium with its virtual authenticator (WebDriver's
/// WebAuthn extension: CTAP2, internal transport, resident keys, user verification): the
/// browser makes the credential after a password + SMS SCA, signs in on the hosted page with
/// it (discoverable, no e-mail typed) and approves a payment consent with it. Screenshots go
/// to /tmp/pk-shots/.
///
/// The server listens on `http://localhost:PORT` on a port chosen beforehand, because the
/// origin is part of the relying party's configuration (`webauthn.origins`) and an IP address
/// cannot be an RP ID.
@Suite(
    "Passkeys in a real browser", .serialized,
    .enabled(if: WebDriver.unavailableReason == nil, "\(WebDriver.unavailableReason ?? "")"))
struct PasskeyBrowserTests {
    static let shots = URL(fileURLWithPath: "/tmp/pk-shots")

    /// Fetches registration options with the `settings_change` token, makes the credential with
    /// `navigator.credentials.create` and registers it: what an account page would do.
    static let registrationScript = """
        const token = arguments[0], done = arguments[arguments.length - 1];
        const decode = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
        const encode = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
          .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
        (async () => {
          const asked = await fetch("/v1/passkeys/registration/options", { method: "POST", headers: { Authorization: "Bearer " + token } });
          const options = await asked.json();
          const publicKey = Object.assign({}, options, {
            challenge: decode(options.challenge),
            user: Object.assign({}, options.user, { id: decode(options.user.id) }),
            excludeCredentials: options.excludeCredentials.map((c) => ({ type: c.type, id: decode(c.id) }))
          });
          const credential = await navigator.credentials.create({ publicKey });
          const body = {
            name: "Chromium",
            credential: {
              id: credential.id, rawId: encode(credential.rawId), type: credential.type,
              response: {
                clientDataJSON: encode(credential.response.clientDataJSON),
                attestationObject: encode(credential.response.attestationObject)
              }
            }
          };
          const answer = await fetch("/v1/passkeys", {
            method: "POST", headers: { Authorization: "Bearer " + token, "Content-Type": "application/json" },
            body: JSON.stringify(body)
          });
          done({ status: answer.status, body: await answer.text() });
        })().catch((error) => done({ status: 0, body: String(error) }));
        """

    @Test("register a passkey after password + SMS, sign in with it on the hosted page, approve a payment with it")
    func passkeyEndToEnd() async throws {
        try await TestServer.runForBrowser(screenshots: Self.shots) { api, base in
            try await Self.scenario(api, base: base)
        }
    }

    /// A `settings_change` token of the user, after their password and an SMS code: what
    /// registering a passkey needs.
    static func settingsChangeToken(_ api: APIClient, email: String, phone: String) async throws -> String {
        let settings = try await api.startChallenge(.settingsChange, email: email)
        #expect(try await api.prove(settings.challengeId, .password, PartnerFixture.password).status == 200)
        #expect(try await api.sendCode(settings.challengeId, .smsOTP).status == 202)
        let proven = try await api.prove(settings.challengeId, .smsOTP, try api.lastCode(sentTo: phone))
        return try #require(try proven.decode(ProofResponse.self).accessToken)
    }

    static func scenario(_ api: APIClient, base: String) async throws {
        let port = try #require(URL(string: base)?.port)
        let email = "passkey.browser@example.com"
        let phone = "+33612348001"
        let userID = try await api.createUser(email, phone: phone)
        let partner = try await PartnerFixture.make(
            api, redirectURI: "http://127.0.0.1:\(port)/health/live", consentRedirect: "http://127.0.0.1:\(port)/health/ready")

        // Binding a new element needs its own SCA: password and an SMS code.
        let settingsToken = try await settingsChangeToken(api, email: email, phone: phone)

        let driver = try await WebDriver()
        func shot(_ step: String) async throws {
            try await driver.screenshot(to: shots.appendingPathComponent("passkey-\(step).png"))
        }
        do {
            try await driver.setWindow(width: 420, height: 900)
            let authenticator = try await driver.addVirtualAuthenticator()

            // 1. The browser makes the passkey on our origin and registers it.
            try await driver.open("\(base)/health/live")
            let registered = try #require(try await driver.executeAsync(registrationScript, [settingsToken]) as? [String: Any])
            #expect(registered["status"] as? Int == 201, "\(registered)")
            let passkeys = try await api.services.store.passkeys(userID: userID)
            #expect(passkeys.count == 1 && passkeys.first?.name == "Chromium")
            let held = try await driver.virtualCredentials(authenticator)
            #expect(held.count == 1 && held.first?["isResidentCredential"] as? Bool == true)

            // 2. Sign in on the hosted page with the passkey alone: no e-mail, no password.
            let (verifier, codeChallenge) = PartnerFixture.pkce()
            try await driver.open(base + partner.authorizePath(challenge: codeChallenge))
            try await shot("1-email")
            try await driver.click("form[action='/signin/passkey'] button")
            #expect(try await driver.text().contains("Sign in with a passkey"))
            try await shot("2-signin-passkey")
            try await driver.click("form[data-passkey-form] button")
            let landed = try await driver.waitForURL(prefix: partner.redirectURI + "?")
            #expect(landed.hasPrefix(partner.redirectURI + "?"), "\(landed)")
            let query = PageBrowser.query(of: landed)
            #expect(query["state"] == "st-123")
            let exchanged = try await partner.exchange(code: try #require(query["code"]), verifier: verifier)
            #expect(exchanged.status == 200)
            let access = try #require(exchanged.json["access_token"] as? String)
            let introspected = try await api.introspect(access)
            #expect(introspected.sub == userID)
            #expect(introspected.amr == [.passkey, .passkeyUserVerified])

            // 3. A payment consent (the partner uses the token of that sign-in), confirmed with
            // the passkey: the assertion is bound to its amount and payee.
            let created = try await partner.createConsent(
                CreateConsentRequest(
                    operation: .payment,
                    transaction: Transaction(
                        amount: "120.00", currency: "EUR", payee: .init(name: "Alice Martin", iban: "FR7630006000011234567890189"),
                        reference: "Invoice 43"),
                    consentRedirectUrl: partner.consentRedirect, resourceId: "order-8"),
                accessToken: access)
            #expect(created.status == 201)
            let consent = try created.decode(ConsentResponse.self)
            try await driver.open(consent.consentUrl)
            let text = try await driver.text()
            #expect(text.contains("Alice Martin") && text.contains("Confirm with a passkey"))
            try await shot("3-consent")
            try await driver.click("form[data-passkey-form] button")
            let approved = try await driver.waitForURL(prefix: partner.consentRedirect)
            #expect(PageBrowser.query(of: approved) == ["consentId": consent.consentId, "status": "Accepted", "resourceId": "order-8"])
            try await shot("4-end")
            let used = try #require(try await api.services.store.passkeys(userID: userID).first)
            #expect(used.lastUsedAt != nil)
        } catch {
            await driver.quit()
            throw error
        }
        await driver.quit()
    }
}
