import Foundation
import SCACore
import Testing

/// A recovery sheet's PUK, presented at once to two `sca-server` instances on one PostgreSQL
/// database: one recovery binds a device, every other is refused, and the sheet's counters see
/// every failure.
@Suite(
    "Recovery on several sca-server instances", .serialized,
    .enabled(if: ServerPair.databaseURL != nil, "PostgreSQL cases skipped: set SCA_TEST_POSTGRES_URL")
)
struct MultiInstanceRecoveryTests {
    @Test("20 parallel recoveries with one PUK over both instances: one binds a device, 19 are refused")
    func pukBurnsOnceOnBothInstances() async throws {
        try await ServerPair.run { a, b in
            let userID = try await a.createUser("sheet-race@example.com")
            let totp = try await a.enrollTOTP(userID)
            // A settings_change token from instance A, the sheet issued on instance B.
            let challenge = try await a.startChallenge(.settingsChange, email: "sheet-race@example.com")
            #expect(try await a.prove(challenge.challengeId, .password, ServerPair.password).status == 200)
            let done = try await a.prove(challenge.challengeId, .totp, totp.code(at: Date()))
            let token = try #require(try done.decode(ProofResponse.self).accessToken)
            let issued = try await b.send("POST", "/v1/me/recovery-sheet", bearer: token)
            #expect(issued.status == 201)
            let sheet = try issued.decode(RecoverySheetResponse.self)

            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    let instance = index.isMultiple(of: 2) ? a : b
                    let request = try RecoveryTests.recovery(TestDevice(), code: sheet.recoveryCode, puk: sheet.puks[0])
                    group.addTask { try await instance.post("/v1/recovery", request).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 1, "\(statuses)")
            // The others: the PUK used (a counted failure), blocked once five were counted, or
            // turned away while attempts were being checked.
            #expect(statuses.filter { $0 != 201 }.allSatisfy { [400, 423, 429].contains($0) }, "\(statuses)")
        }
    }
}
