import Foundation
import SCACore
import SCAStorage
import Testing

// Partner clients, authorization codes and consents (v3-partners).
extension StoreConformance {
    func partnerClientRoundTrip() async throws {
        let confidential = PartnerClientRecord(
            id: "cli_a", name: "Shop", secretHash: [1, 2, 3], redirectURIs: ["https://shop.example/cb", "com.shop.app:/cb"],
            consentRedirectURIs: ["https://shop.example/consent"], scopes: ["openid", "offline"], createdAt: t0)
        let publicClient = PartnerClientRecord(
            id: "cli_b", name: "App", secretHash: nil, redirectURIs: ["http://localhost:5000/cb"], consentRedirectURIs: [],
            scopes: ["openid"], createdAt: t0 + 1)
        try await store.createPartnerClient(confidential)
        try await store.createPartnerClient(publicClient)
        #expect(try await store.partnerClient(id: "cli_a") == confidential)
        #expect(try await store.partnerClients() == [confidential, publicClient])
        await #expect(throws: StoreError.conflict("id")) { try await store.createPartnerClient(confidential) }
        // A session of the client, one of another client, a first-party one: removing the
        // client ends its own and leaves the others.
        for (id, clientID) in [("ses_a", "cli_a" as String?), ("ses_b", "cli_b"), ("ses_own", nil)] {
            try await store.createSession(
                SessionRecord(
                    id: id, userID: "u1", operation: .login, challengeID: "ch_\(id)", createdAt: t0, lastUsedAt: t0,
                    clientID: clientID),
                refreshToken: nil)
        }
        #expect(try await store.session(id: "ses_a")?.clientID == "cli_a")
        #expect(try await store.session(id: "ses_own")?.clientID == nil)
        #expect(try await store.removePartnerClient(id: "cli_a", now: t0 + 5))
        #expect(try await store.session(id: "ses_a")?.revokedAt == t0 + 5)
        #expect(try await store.session(id: "ses_b")?.revokedAt == nil)
        #expect(try await store.session(id: "ses_own")?.revokedAt == nil)
        #expect(try await !store.removePartnerClient(id: "cli_a", now: t0 + 5))
        #expect(try await store.partnerClient(id: "cli_a") == nil)
    }

    func authorizationCodesRedeemOnce() async throws {
        let grant = AuthorizationGrantRecord(
            codeHash: [9, 9, 9], clientID: "cli_a", redirectURI: "https://shop.example/cb", userID: "u1", sessionID: "s1",
            scopes: ["openid"], nonce: "n-1", codeChallenge: "challenge", authTime: t0, sealedTokens: [7, 7],
            expiresAt: t0 + 60)
        try await store.insertAuthorizationGrant(grant)
        #expect(try await store.authorizationGrant(sessionID: "s1") == grant)
        #expect(try await store.redeemAuthorizationCode(codeHash: [1], now: t0) == .unknown)
        let results = try await inParallel(8) { try await store.redeemAuthorizationCode(codeHash: [9, 9, 9], now: t0 + 1) }
        var redeemed = grant
        redeemed.redeemedAt = t0 + 1
        #expect(results.filter { $0 == .redeemed(redeemed) }.count == 1)
        #expect(results.filter { $0 == .alreadyRedeemed(redeemed) }.count == 7)
    }

    func consentCompareAndSet() async throws {
        let consent = ConsentRecord(
            id: "cst_1", clientID: "cli_a", userID: "u1", operation: .payment,
            transaction: Transaction(amount: "12.50", currency: "EUR", payee: .init(name: "Bob", iban: "FR7630006000011234567890189")),
            redirectURL: "https://shop.example/consent", resourceID: "order-7", createdAt: t0, expiresAt: t0 + 900)
        try await store.insertConsent(consent, auditing: consentEntry("cst_1", to: "Created"))
        #expect(try await store.consent(id: "cst_1") == consent)
        // A second insert stores neither the consent nor its entry.
        await #expect(throws: StoreError.conflict("id")) {
            try await store.insertConsent(consent, auditing: consentEntry("cst_1", to: "Created"))
        }
        #expect(try await store.auditEntries(after: 0, limit: 10).map(\.draft.details["to"]) == ["Created"])
        var started = consent
        let moved = started.move(to: .started, now: t0 + 5)
        #expect(moved)
        started.challengeID = "ch_1"
        started.sealedToken = [4, 5]
        started.beneficiary = ConsentBeneficiary(name: "Bob", iban: "DE89370400440532013000")
        started.summary = "words"
        let candidate = started
        let results = try await inParallel(6) { try await store.updateConsent(candidate, expectedVersion: 0) }
        #expect(results.filter { $0 }.count == 1)
        started.version = 1
        #expect(try await store.consent(id: "cst_1") == started)
    }

    /// The consent, its partner's name, its user, its challenge and the user's devices in one
    /// read; nil parts for what is missing.
    func consentContextReadsWhatThePageShows() async throws {
        #expect(try await store.consentContext(id: "cst_1") == nil)
        let consent = ConsentRecord(
            id: "cst_1", clientID: "cli_a", userID: "u1", operation: .settingsChange, summary: "Change your phone number",
            redirectURL: "https://shop.example/consent", createdAt: t0, expiresAt: t0 + 900)
        try await store.insertConsent(consent, auditing: consentEntry("cst_1", to: "Created"))
        // Neither its client nor its user exists (any more).
        #expect(
            try await store.consentContext(id: "cst_1")
                == ConsentContext(consent: consent, clientName: nil, user: nil, challenge: nil, devices: []))

        try await store.createPartnerClient(
            PartnerClientRecord(
                id: "cli_a", name: "Shop", secretHash: nil, redirectURIs: ["https://shop.example/cb"],
                consentRedirectURIs: ["https://shop.example/consent"], scopes: ["openid"], createdAt: t0))
        try await store.createUser(makeUser())
        try await store.createUser(makeUser("u2", email: "bob@example.com"))
        try await addDevice(makeDevice("d2", createdAt: t0 + 2))
        try await addDevice(makeDevice("d1", createdAt: t0 + 1))
        try await addDevice(makeDevice("d3", userID: "u2"))
        try await store.insertChallenge(makeChallenge())
        var started = consent
        let moved = started.move(to: .started, now: t0 + 5)
        #expect(moved)
        started.challengeID = "c1"
        #expect(try await store.updateConsent(started, expectedVersion: 0))
        started.version = 1

        let context = try #require(try await store.consentContext(id: "cst_1"))
        #expect(context.consent == started)
        #expect(context.clientName == "Shop")
        #expect(context.user == (try await store.user(id: "u1")))
        #expect(context.challenge == (try await store.challenge(id: "c1")))
        #expect(context.devices == (try await store.devices(userID: "u1")))
        #expect(context.devices.map(\.id) == ["d1", "d2"])
    }

    /// The `consent.changed` entry a consent's insert or move appends.
    func consentEntry(_ id: String, to status: String) -> AuditEntryDraft {
        AuditEntryDraft(
            time: t0, event: "consent.changed", actor: "client", outcome: "success",
            details: ["consentId": id, "to": status])
    }
}
