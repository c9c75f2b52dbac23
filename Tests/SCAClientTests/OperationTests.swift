import Foundation
import SCAClient
import SCACore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Decoupled operations through the SDK over real HTTP: pending, approve with the
/// biometric gate, reject, and the long poll that holds one request open.
@Suite("SDK: decoupled operations")
struct OperationTests {
    static let payment = Transaction(
        amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR7630006000011234567890189"))

    /// The backend's side, over HTTP with the admin key.
    static func backend(
        _ harness: Harness, _ method: String, _ path: String, body: (any Encodable)? = nil
    ) async throws -> (Int, Data) {
        var request = URLRequest(url: harness.url.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("Bearer \(SDKTestServer.adminKey)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = try WireJSON.encoder().encode(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    static func create(_ harness: Harness, userID: String) async throws -> OperationResponse {
        let (status, data) = try await backend(
            harness, "POST", "v1/operations",
            body: CreateOperationRequest(
                user: UserReference(userId: userID), operation: .payment, transaction: payment, bindingMessage: "Order 42"))
        #expect(status == 201)
        return try WireJSON.decoder().decode(OperationResponse.self, from: data)
    }

    static func read(_ harness: Harness, _ id: String) async throws -> OperationResponse {
        let (status, data) = try await backend(harness, "GET", "v1/operations/\(id)")
        #expect(status == 200)
        return try WireJSON.decoder().decode(OperationResponse.self, from: data)
    }

    @Test("pending, approve behind the biometric gate; the backend reads approved with a txn-bound token")
    func approve() async throws {
        try await SDKTestServer().run { harness in
            let userID = try await harness.createUser("alice@example.com")
            let client = harness.client()
            _ = try await harness.activate(client, for: userID)
            #expect(try await client.pendingOperations().isEmpty)
            let created = try await Self.create(harness, userID: userID)
            let pending = try await client.pendingOperations()
            let operation = try #require(pending.first)
            #expect(operation.transaction == Self.payment)
            #expect(operation.bindingMessage == "Order 42")

            // A failed gate sends nothing.
            let declining = ScriptedCollector(ScriptedCollector.Script(passesBiometricGate: false))
            await #expect(throws: SCAClientError.cancelled) { try await client.approve(operation, using: declining) }
            #expect(try await Self.read(harness, created.operationId).status == .pending)

            let collector = ScriptedCollector(ScriptedCollector.Script())
            let decision = try await client.approve(operation, using: collector)
            #expect(decision.status == .approved)
            #expect(collector.events == [.biometricGate("Approve paying 125.00 EUR to ACME SAS")])
            let read = try await Self.read(harness, created.operationId)
            #expect(read.status == .approved)
            #expect(read.accessToken != nil)
        }
    }

    @Test("reject with a reason")
    func reject() async throws {
        try await SDKTestServer().run { harness in
            let userID = try await harness.createUser("alice@example.com")
            let client = harness.client()
            _ = try await harness.activate(client, for: userID)
            let created = try await Self.create(harness, userID: userID)
            let operation = try #require(try await client.pendingOperations().first)
            #expect(try await client.reject(operation, reason: .wrongAmount).status == .rejected)
            let read = try await Self.read(harness, created.operationId)
            #expect(read.status == .rejected)
            #expect(read.rejectReason == .wrongAmount)
            // Answering again: the operation is final.
            await #expect(throws: SCAClientError.self) { try await client.reject(operation, reason: .other) }
        }
    }

    @Test("a long poll is held open and answers when an operation appears")
    func longPoll() async throws {
        try await SDKTestServer().run { harness in
            let userID = try await harness.createUser("alice@example.com")
            let client = harness.client()
            _ = try await harness.activate(client, for: userID)
            let waiting = Task { try await client.pendingOperations(wait: 25) }
            // The request is open on the server before the operation exists.
            try await Task.sleep(for: .milliseconds(1_500))
            let created = try await Self.create(harness, userID: userID)
            let answered = try await waiting.value
            // Woken by the operation, not by the end of its 25 s hold: the server's clock is the
            // test's, which never moves, so the hold has no other way to end.
            #expect(answered.map(\.operationId) == [created.operationId])
        }
    }
}
