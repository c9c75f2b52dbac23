import Foundation
import SCACore
import SCAEngine
import Testing

/// A device signature counts once on its challenge, whatever the timing: its burn is part of the
/// challenge's compare-and-set write (v3-challenge-signatures), so parallel copies
/// race on one version and a discarded round does not forget it.
@Suite("Device signature replays")
struct SignatureReplayTests {
    @Test("the same right signature sent 20 times at once: accepted once, the others refused as replays and not counted")
    func parallelCopiesOfOneSignature() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            let userID = try await api.createUser("sigrace@example.com")
            var device = TestDevice()
            try await api.activate(&device, userID: userID)
            let challenge = try await api.startChallenge(.login, userID: userID, device: device).decode(ChallengeResponse.self)
            let proof = try device.proof(.deviceKey, for: challenge)
            let answers = await withTaskGroup(of: APIResponse?.self) { group in
                for _ in 0..<20 { group.addTask { try? await api.prove(challenge.challengeId, proof) } }
                var answers: [APIResponse?] = []
                for await answer in group { answers.append(answer) }
                return answers
            }
            #expect(answers.filter { $0?.status == 200 }.count == 1)
            #expect(answers.filter { $0?.problem?.code == .codeAlreadyUsed }.count == 19, "\(answers.map { $0?.status })")

            let stored = try #require(try await api.services.store.challenge(id: challenge.challengeId))
            #expect(stored.acceptedMethods == [.deviceKey])
            #expect(stored.usedSignatures.count == 1)
            #expect(stored.failedAttempts == 0)
            #expect(try await api.services.store.device(id: device.deviceID)?.failCount == 0)
            let entries = try await api.services.store.auditEntries(after: 0, limit: 200).map(\.draft)
            #expect(entries.filter { $0.event == "proof.rejected" && $0.outcome == "replayed" }.count == 19)
            #expect(entries.filter { $0.event == "proof.accepted" && $0.challengeID == challenge.challengeId }.count == 1)
            // The signature still completes nothing on its own; a biometric signature does.
            let done = try await api.prove(challenge.challengeId, try device.proof(.biometricKey, for: challenge))
            #expect(try done.decode(ProofResponse.self).status == .complete)
        }
    }

    @Test("a right signature from a discarded deferred round cannot be collected again in the next")
    func signatureOfADiscardedRound() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .deferred) }.run { api in
            let userID = try await api.createUser("siground@example.com")
            var device = TestDevice()
            try await api.activate(&device, userID: userID)
            let challenge = try await api.startChallenge(.login, userID: userID, device: device).decode(ChallengeResponse.self)
            let possession = try device.proof(.deviceKey, for: challenge)
            #expect(try await api.prove(challenge.challengeId, possession).status == 200)
            // The round is decided with a wrong password: discarded whole, one failure counted.
            #expect(try await api.prove(challenge.challengeId, .password, "wrong horse battery").status == 401)
            #expect(try await api.services.store.challenge(id: challenge.challengeId)?.acceptedMethods == [])

            // Whoever kept the first signature cannot bring it back without the device.
            #expect(try await api.prove(challenge.challengeId, possession).problem?.code == .codeAlreadyUsed)
            // The device itself signs again (a new signature) and the user types the password.
            #expect(try await api.prove(challenge.challengeId, try device.proof(.deviceKey, for: challenge)).status == 200)
            let done = try await api.prove(challenge.challengeId, .password, "correct horse battery")
            #expect(try done.decode(ProofResponse.self).status == .complete)
            #expect(try await api.services.store.challenge(id: challenge.challengeId)?.usedSignatures.count == 2)
        }
    }
}
