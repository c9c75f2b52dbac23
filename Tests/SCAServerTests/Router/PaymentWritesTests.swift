import Foundation
import SCACore
import SCAEngine
import SCAStorage
import Testing

/// How many write transactions a payment costs the store, counted through the store's own
/// tracing on a real server (SQLite's spans tell a write from a read): what the risk engine
/// records rides in the writes the payment makes anyway.
@Suite("Payment: store writes")
struct PaymentWritesTests {
    @Test("a payment let through without SCA is one write: its challenge, payment, counters, session and four entries, after the session's use")
    func exemptPaymentIsOneWrite() async throws {
        let calls = StoreRoundTrips()
        try await TestServer(tracing: calls.recorder) { $0.risk.exemptLowValue = true }.run { api in
            let user = try await api.signIn("one-write@example.com")
            let (answer, opening) = try await calls.during { try await api.pay(user, ExemptionTests.eur("10.00")) }
            let challenge = try api.decodeChallenge(answer)
            #expect(challenge.exemption == .lowValue && challenge.state == .completed)
            // The login session the exemption needs is used first (its inactivity clock, a
            // write of its own); everything the payment is, is the one write after it.
            #expect(opening.filter(\.isWrite).map(\.operation) == ["useSession", "insertChallenge"], "\(opening)")

            // All of it was in that write: the trail in order, the counters, the session the
            // token names (introspection finds it active).
            let entries = try await api.auditEntries().filter { $0.draft.challengeID == challenge.challengeId }
            #expect(entries.map(\.draft.event) == ["risk.decision", "challenge.created", "token.issued", "challenge.completed"])
            #expect(try await api.services.store.riskState(key: "user:\(user.id)", as: RiskState.self).lowValue.count == 1)
            let token = try #require(challenge.tokens?.accessToken)
            #expect(try await api.introspect(token, transaction: ExemptionTests.eur("10.00"), consume: true).active)
        }
    }

    @Test("a payment with SCA: one write opens it after the session's use, and the completing proof authorises it in its own write")
    func scaPaymentWrites() async throws {
        let calls = StoreRoundTrips()
        try await TestServer(tracing: calls.recorder).run { api in
            let user = try await api.signIn("three-writes@example.com")
            let (answer, opening) = try await calls.during { try await api.pay(user, ExemptionTests.eur("125.00")) }
            let challenge = try api.decodeChallenge(answer)
            #expect(challenge.state == .pending)
            #expect(opening.filter(\.isWrite).map(\.operation) == ["useSession", "insertChallenge"], "\(opening)")

            let (_, proving) = try await calls.during { _ = try await api.completeSCA(challenge.challengeId, user) }
            // Password, then TOTP: each a claim that counts the attempt first and the proof's
            // commit, the last of which authorises the payment.
            #expect(proving.filter(\.isWrite).map(\.operation) == Array(repeating: "commitProof", count: 4), "\(proving)")
            let authorised = try await api.services.store.riskPayments(userID: user.id, since: .distantPast)
            #expect(authorised.map(\.challengeID) == [challenge.challengeId])
        }
    }
}
