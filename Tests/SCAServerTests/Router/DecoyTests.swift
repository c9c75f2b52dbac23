import Foundation
import SCACore
import Testing

@Suite("Unknown users get a decoy challenge (no account enumeration)")
struct DecoyTests {
    @Test("same shape as a real challenge; every proof fails; codes answer the same")
    func decoyLooksOrdinary() async throws {
        try await TestServer().run { api in
            _ = try await api.createUser("real@example.com", phone: "+33612345616")
            let real = try await api.post(
                "/v1/challenges", CreateChallengeRequest(operation: .login, user: UserReference(email: "real@example.com")))
            let decoy = try await api.post(
                "/v1/challenges", CreateChallengeRequest(operation: .login, user: UserReference(email: "ghost@example.com")))
            #expect(real.status == 201)
            #expect(decoy.status == 201)
            #expect(Set(real.json.keys) == Set(decoy.json.keys))
            let challenge = try decoy.decode(ChallengeResponse.self)
            #expect(challenge.methods.map(\.id) == [.password, .smsOTP, .emailOTP])

            let sent = try await api.sendCode(challenge.challengeId, .smsOTP)
            #expect(sent.status == 202)
            #expect(try sent.decode(CodeSentResponse.self).sentTo.hasPrefix("+33"))
            #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 429)

            let partial = try await api.prove(challenge.challengeId, .password, "correct horse battery")
            #expect(try partial.decode(ProofResponse.self).status == .partial)
            let verdict = try await api.prove(challenge.challengeId, .smsOTP, "123456")
            #expect(verdict.status == 401)
            #expect(verdict.problem?.code == .authenticationFailed)
            #expect(try api.services.outbox?.messages().isEmpty ?? true)  // nothing was really sent
        }
    }
}
