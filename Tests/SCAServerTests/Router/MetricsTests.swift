import Foundation
import SCACore
import SCAEngine
import Testing

@Suite("Prometheus metrics at /metrics")
struct MetricsTests {
    @Test("after a login: proofs, challenges, tokens and requests are counted, with no id in any label")
    func countersAfterLogin() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("metrics@example.com")
            let totp = try await api.enrollTOTP(userID)
            _ = try await api.logIn("metrics@example.com", totp: totp)

            let response = try await api.send(.get, "/metrics")
            #expect(response.status == 200)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = String(decoding: response.body, as: UTF8.self)
            let lines = Set(text.split(separator: "\n").map(String.init))
            #expect(lines.contains(#"sca_proofs_total{method="password",outcome="accepted"} 1"#))
            #expect(lines.contains(#"sca_proofs_total{method="totp",outcome="accepted"} 1"#))
            #expect(lines.contains(#"sca_challenges_total{operation="login",event="created"} 1"#))
            #expect(lines.contains(#"sca_challenges_total{operation="login",event="completed"} 1"#))
            #expect(lines.contains(#"sca_tokens_total{operation="issued"} 1"#))
            #expect(lines.contains(#"sca_http_requests_total{method="POST",route="/v1/challenges/{id}/proofs",status="200"} 2"#))
            #expect(lines.contains(#"sca_build_info{version="\#(ServerMetrics.version)"} 1.0"#) || lines.contains(#"sca_build_info{version="\#(ServerMetrics.version)"} 1"#))
            #expect(text.contains("sca_password_hash_duration_seconds_bucket"))

            let challengeID = try #require(try await api.services.store.auditEntries(after: 0, limit: 100)
                .compactMap(\.draft.challengeID).first)
            #expect(!text.contains(userID))
            #expect(!text.contains(challengeID))
            #expect(!text.contains("metrics@example.com"))
        }
    }

    @Test("lockouts, codes sent and rejected proofs have their own series")
    func lockoutsAndCodes() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            _ = try await api.createUser("mlock@example.com", phone: "+33612345698")
            let challenge = try await api.startChallenge(email: "mlock@example.com")
            #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
            for _ in 0..<5 { try await api.prove(challenge.challengeId, .password, "wrong password!") }

            let text = String(decoding: try await api.send(.get, "/metrics").body, as: UTF8.self)
            let lines = Set(text.split(separator: "\n").map(String.init))
            #expect(lines.contains(#"sca_proofs_total{method="password",outcome="rejected"} 5"#))
            #expect(lines.contains(#"sca_lockouts_total{kind="temporary"} 1"#))
            #expect(lines.contains(#"sca_codes_sent_total{channel="sms"} 1"#))
        }
    }

    @Test("each server has its own registry")
    func registriesAreIsolated() async throws {
        let first = try await TestServer()
        let second = try await TestServer()
        try await first.run { api in
            let userID = try await api.createUser("iso@example.com")
            _ = try await api.logIn("iso@example.com", totp: try await api.enrollTOTP(userID))
        }
        try await second.run { api in
            let text = String(decoding: try await api.send(.get, "/metrics").body, as: UTF8.self)
            #expect(!text.contains("sca_proofs_total{"))
        }
    }
}
