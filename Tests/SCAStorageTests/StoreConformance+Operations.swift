import Foundation
import SCACore
import SCAStorage
import Testing

// Decoupled operations (v3-operations), checked on every backend.
extension StoreConformance {
    func makeOperation(_ id: String = "op_1", device: String = "dev_1", createdAt: Date? = nil) -> OperationRecord {
        let created = createdAt ?? t0
        return OperationRecord(
            id: id, userID: "u1", clientID: "cli_a", deviceID: device, challengeID: "ch_\(id)", operation: .payment,
            transaction: Transaction(amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR7630006000011234567890189")),
            bindingMessage: "Order 42", createdAt: created, expiresAt: created + 300)
    }

    func operationRoundTripAndPending() async throws {
        let first = makeOperation("op_1")
        let second = makeOperation("op_2", createdAt: t0 + 1)
        let other = makeOperation("op_3", device: "dev_2")
        for operation in [second, first, other] { try await store.insertOperation(operation) }
        #expect(try await store.operation(id: "op_1") == first)
        #expect(try await store.operation(id: "op_x") == nil)
        await #expect(throws: StoreError.conflict("id")) { try await store.insertOperation(first) }
        #expect(try await store.pendingOperations(deviceID: "dev_1", now: t0 + 10) == [first, second])
        // Past their expiry they are no longer pending, whatever the stored status says.
        #expect(try await store.pendingOperations(deviceID: "dev_1", now: t0 + 301).isEmpty)
        #expect(try await store.pendingOperations(deviceID: "dev_1", now: t0 + 300) == [second])

        var rejected = first
        let rejectedMove = rejected.finish(as: .rejected, reason: .notMe, now: t0 + 20)
        #expect(rejectedMove)
        #expect(try await store.updateOperation(rejected, expectedVersion: 0))
        rejected.version = 1
        #expect(try await store.operation(id: "op_1") == rejected)
        #expect(try await store.pendingOperations(deviceID: "dev_1", now: t0 + 30) == [second])
        // A stale version changes nothing.
        var approved = first
        let approvedMove = approved.finish(as: .approved, sealedToken: [1, 2, 3], now: t0 + 21)
        #expect(approvedMove)
        #expect(try await !store.updateOperation(approved, expectedVersion: 0))
        #expect(try await store.operation(id: "op_1") == rejected)
    }

    /// 50 parallel approve, reject and cancel attempts on one operation: exactly one final
    /// status is stored, and it is the one whose update succeeded.
    func parallelOperationMovesStoreOneFinalStatus() async throws {
        try await store.insertOperation(makeOperation("op_race"))
        let store = self.store
        let now = t0 + 5
        let results = try await withThrowingTaskGroup(of: (OperationStatus, Bool).self) { group in
            for index in 0..<50 {
                group.addTask {
                    let loaded = try #require(try await store.operation(id: "op_race"))
                    let target: OperationStatus = [.approved, .rejected, .canceled][index % 3]
                    var next = loaded
                    guard next.finish(as: target, reason: .other, sealedToken: [9], now: now) else { return (target, false) }
                    return (target, try await store.updateOperation(next, expectedVersion: loaded.version))
                }
            }
            var all: [(OperationStatus, Bool)] = []
            for try await result in group { all.append(result) }
            return all
        }
        let winners = results.filter(\.1)
        #expect(winners.count == 1)
        let stored = try #require(try await store.operation(id: "op_race"))
        #expect(stored.status == winners.first?.0)
        #expect(stored.version == 1)
    }

    func authorizationGrantsNameWhoSignedIn() async throws {
        #expect(try await !store.hasAuthorizationGrant(clientID: "cli_a", userID: "u1"))
        try await store.insertAuthorizationGrant(
            AuthorizationGrantRecord(
                codeHash: [1, 1], clientID: "cli_a", redirectURI: "https://shop.example/cb", userID: "u1", sessionID: "s1",
                scopes: ["openid"], nonce: nil, codeChallenge: "c", authTime: t0, sealedTokens: [7], expiresAt: t0 + 60))
        #expect(try await store.hasAuthorizationGrant(clientID: "cli_a", userID: "u1"))
        #expect(try await !store.hasAuthorizationGrant(clientID: "cli_b", userID: "u1"))
        #expect(try await !store.hasAuthorizationGrant(clientID: "cli_a", userID: "u2"))
    }
}
