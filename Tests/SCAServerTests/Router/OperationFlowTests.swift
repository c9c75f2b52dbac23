import Foundation
import HTTPTypes
import Hummingbird
import SCACore
import SCAStorage
import Testing

/// Decoupled operations through the real routes: a backend creates, the bound phone
/// approves or rejects with device-signed requests, the backend reads the outcome.
@Suite("Decoupled operations")
struct OperationFlowTests {
    static let payment = Transaction(
        amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR7630006000011234567890189"))

    static func paymentRequest(_ userID: String, bindingMessage: String? = "Order 42", expiresIn: Int? = nil) -> CreateOperationRequest {
        CreateOperationRequest(
            user: UserReference(userId: userID), operation: .payment, transaction: payment, bindingMessage: bindingMessage,
            expiresIn: expiresIn)
    }

    static func audit(_ api: APIClient) async throws -> [AuditEntryDraft] {
        try await api.services.store.auditEntries(after: 0, limit: 10_000).map(\.draft)
    }

    static func audited(_ api: APIClient, _ event: String, outcome: String? = nil) async throws -> Bool {
        try await audit(api).contains { $0.event == event && (outcome == nil || $0.outcome == outcome) }
    }

    @Test("backend creates, phone approves, backend reads approved and consumes the token once")
    func approveFlow() async throws {
        try await TestServer().run { api in
            let (userID, phone) = try await api.userWithPhone("alice@example.com")
            let created = try await api.createOperation(Self.paymentRequest(userID))
            #expect(created.status == 201)
            let operation = try created.decode(OperationResponse.self)
            #expect(operation.status == .pending)
            #expect(operation.expiresAt == api.clock.now().addingTimeInterval(300))

            let pending = try await phone.pending()
            #expect(pending.count == 1)
            let shown = try #require(pending.first)
            #expect(shown.operationId == operation.operationId)
            #expect(shown.transaction == Self.payment)
            #expect(shown.bindingMessage == "Order 42")
            #expect(shown.transactionDigest == Self.payment.digest)

            let approved = try await phone.approve(shown)
            #expect(approved.status == 200)
            #expect(try approved.decode(OperationDecisionResponse.self).status == .approved)
            #expect(approved.json["accessToken"] == nil)  // the token is the backend's

            let read = try await api.operation(operation.operationId)
            let final = try read.decode(OperationResponse.self)
            #expect(final.status == .approved)
            let token = try #require(final.accessToken)
            let claims = try jwtClaims(token)
            #expect(claims["txn"] as? String == Self.payment.digest)
            #expect(try await api.introspect(token, operation: .payment, transaction: Self.payment, consume: true).active)
            #expect(try await !api.introspect(token, operation: .payment, transaction: Self.payment, consume: true).active)
            #expect(try await phone.pending().isEmpty)

            // The same approval again: the operation is final.
            let again = try await phone.approve(shown)
            #expect(again.status == 409)
            #expect(again.problem?.code == .operationClosed)
            let finished = try await Self.audit(api).filter { $0.event == "operation.finished" }
            #expect(finished.map(\.outcome) == ["approved"])
        }
    }

    @Test("reject with not_me is final and audited as a fraud signal")
    func rejectNotMe() async throws {
        try await TestServer().run { api in
            let (userID, phone) = try await api.userWithPhone("alice@example.com")
            let operation = try await api.createOperation(Self.paymentRequest(userID)).decode(OperationResponse.self)
            let rejected = try await phone.reject(operation.operationId, .notMe)
            #expect(rejected.status == 200)
            #expect(try rejected.decode(OperationDecisionResponse.self).status == .rejected)
            let read = try await api.operation(operation.operationId).decode(OperationResponse.self)
            #expect(read.status == .rejected)
            #expect(read.rejectReason == .notMe)
            #expect(read.accessToken == nil)
            let entries = try await Self.audit(api)
            let signal = try #require(entries.first { $0.event == "operation.fraud_signal" })
            #expect(signal.outcome == "not_me")
            #expect(signal.details["operationId"] == operation.operationId)
            // Now neither approve nor cancel changes it.
            #expect(try await api.operation(operation.operationId, method: .delete).problem?.code == .operationClosed)
        }
    }

    @Test("an operation expires with the clock and cannot be approved afterwards")
    func expiry() async throws {
        try await TestServer().run { api in
            let (userID, phone) = try await api.userWithPhone("alice@example.com")
            let operation = try await api.createOperation(Self.paymentRequest(userID, expiresIn: 60)).decode(OperationResponse.self)
            let shown = try #require(try await phone.pending().first)
            api.clock.advance(by: 60)
            #expect(try await phone.pending().isEmpty)
            let late = try await phone.approve(shown)
            #expect(late.status == 409)
            #expect(late.problem?.code == .operationClosed)
            #expect(try await api.operation(operation.operationId).decode(OperationResponse.self).status == .expired)
        }
    }

    @Test("five approvals with a wrong signature fail the operation")
    func fiveBadSignaturesFail() async throws {
        try await TestServer().run { api in
            let (userID, phone) = try await api.userWithPhone("alice@example.com")
            let operation = try await api.createOperation(Self.paymentRequest(userID)).decode(OperationResponse.self)
            let shown = try #require(try await phone.pending().first)
            for attempt in 1...5 {
                let refused = try await phone.approve(shown, try phone.approval(for: shown, wrongKey: true))
                let status = refused.status
                #expect([401, 403].contains(status), "attempt \(attempt)")
            }
            #expect(try await api.operation(operation.operationId).decode(OperationResponse.self).status == .failed)
            #expect(try await Self.audited(api, "operation.finished", outcome: "failed"))
        }
    }

    @Test("signatures over another amount are refused, counted, and change nothing")
    func changedAmountRefused() async throws {
        try await TestServer().run { api in
            let (userID, phone) = try await api.userWithPhone("alice@example.com")
            let operation = try await api.createOperation(Self.paymentRequest(userID)).decode(OperationResponse.self)
            let shown = try #require(try await phone.pending().first)
            var other = Self.payment
            other.amount = "9125.00"
            let changed = try phone.approval(for: shown, digest: .some(other.digest))
            let refused = try await phone.approve(shown, changed)
            #expect(refused.status == 401)
            #expect(try await api.operation(operation.operationId).decode(OperationResponse.self).status == .pending)
            #expect(try await Self.audited(api, "proof.rejected"))
            // The right signatures still approve it afterwards.
            #expect(try await phone.approve(shown).status == 200)
        }
    }

    @Test("another user's device, a removed device and a replayed request are refused")
    func devicesRefused() async throws {
        try await TestServer().run { api in
            let (userID, phone) = try await api.userWithPhone("alice@example.com")
            let (_, mallory) = try await api.userWithPhone("mallory@example.com")
            let operation = try await api.createOperation(Self.paymentRequest(userID)).decode(OperationResponse.self)
            let shown = try #require(try await phone.pending().first)
            #expect(try await mallory.pending().isEmpty)
            let foreign = try await mallory.approve(shown, try mallory.approval(for: shown))
            #expect(foreign.status == 404)
            #expect(foreign.problem?.code == .operationNotFound)
            #expect(try await Self.audited(api, "operation.refused", outcome: "not_addressed"))

            // A signed request replayed with its nonce.
            let nonce = try await phone.nonce()
            #expect(try await phone.send(.get, "/v1/operations/pending", nonce: nonce).status == 200)
            let replayed = try await phone.send(.get, "/v1/operations/pending", nonce: nonce)
            #expect(replayed.status == 401)
            #expect(replayed.problem?.code == .deviceRequestInvalid)
            // Signed by another key; and a forged nonce.
            #expect(try await phone.send(.get, "/v1/operations/pending", key: mallory.device.possessionKey).status == 401)
            let forged = Base64URL.encode([UInt8](repeating: 7, count: 56))
            #expect(try await phone.send(.get, "/v1/operations/pending", nonce: forged).problem?.code == .deviceRequestInvalid)
            // Unsigned.
            #expect(try await api.send(.get, "/v1/operations/pending").status == 401)

            let removed = try await api.send(.delete, "/admin/v1/devices/\(phone.device.deviceID)", admin: true)
            #expect(removed.status == 200)
            let refused = try await phone.approve(shown)
            #expect(refused.status == 403)
            #expect(refused.problem?.code == .deviceRemoved)
            #expect(try await api.operation(operation.operationId).decode(OperationResponse.self).status == .pending)
        }
    }

    @Test("bad input is refused with a clear problem and stores nothing")
    func badInput() async throws {
        try await TestServer().run { api in
            let (userID, _) = try await api.userWithPhone("alice@example.com")
            for message in [String(repeating: "x", count: 65), "Pay\u{0007}now", "ACME\u{202E}SAS", "line\nbreak"] {
                let refused = try await api.createOperation(Self.paymentRequest(userID, bindingMessage: message))
                #expect(refused.status == 400, "\(message.debugDescription)")
                #expect(refused.problem?.code == .requestInvalid)
                #expect(refused.problem?.detail?.contains("bindingMessage") == true)
            }
            #expect(try await api.createOperation(Self.paymentRequest(userID, bindingMessage: String(repeating: "é", count: 64))).status == 201)
            #expect(try await api.createOperation(Self.paymentRequest(userID, expiresIn: 901)).status == 400)
            #expect(try await api.createOperation(Self.paymentRequest(userID, expiresIn: 0)).status == 400)
            let noTransaction = CreateOperationRequest(user: UserReference(userId: userID), operation: .payment)
            #expect(try await api.createOperation(noTransaction).status == 400)
            let activation = CreateOperationRequest(user: UserReference(userId: userID), operation: .deviceActivation)
            #expect(try await api.createOperation(activation).status == 400)
            let unknown = try await api.createOperation(Self.paymentRequest("usr_nobody"))
            #expect(unknown.status == 404)
            let withoutPhone = try await api.createUser("bob@example.com")
            #expect(try await api.createOperation(Self.paymentRequest(withoutPhone)).problem?.code == .operationNoDevice)
            #expect(try await Self.audit(api).filter { $0.event == "operation.created" }.count == 1)
            // Unknown and malformed ids: 404 alike. No credential: 401.
            #expect(try await api.operation("op_unknown").problem?.code == .operationNotFound)
            #expect(try await api.operation("nothing").problem?.code == .operationNotFound)
            #expect(try await api.send(.get, "/v1/operations/op_unknown").status == 401)
        }
    }

    @Test("a partner creates operations only for users who signed in to it, and sees only its own")
    func partnerCredentials() async throws {
        try await TestServer().run { api in
            let shop = try await PartnerFixture.make(api)
            let other = try await PartnerFixture.make(api)
            _ = try await shop.tokens(email: "alice@example.com", phone: "+33612345678")
            let alice = try #require(try await api.services.store.user(email: "alice@example.com"))
            var device = TestDevice()
            try await api.activate(&device, userID: alice.id)

            func basic(_ fixture: PartnerFixture) -> HTTPFields {
                let credentials = Data("\(fixture.clientID):\(fixture.clientSecret ?? "")".utf8).base64EncodedString()
                return [.contentType: "application/json", .authorization: "Basic \(credentials)"]
            }
            func call(_ method: HTTPRequest.Method, _ path: String, as fixture: PartnerFixture, body: Data? = nil) async throws -> APIResponse {
                let response = try await api.client.execute(
                    uri: path, method: method, headers: basic(fixture), body: body.map { ByteBuffer(bytes: $0) })
                return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
            }
            let body = try WireJSON.encoder().encode(Self.paymentRequest(alice.id))
            let created = try await call(.post, "/v1/operations", as: shop, body: body)
            #expect(created.status == 201)
            let operation = try created.decode(OperationResponse.self)
            // The other client: alice never signed in there, and shop's operation is unknown to it.
            #expect(try await call(.post, "/v1/operations", as: other, body: body).problem?.code == .userNotFound)
            let hidden = try await call(.get, "/v1/operations/\(operation.operationId)", as: other)
            let unknown = try await call(.get, "/v1/operations/op_unknown", as: other)
            #expect(hidden.status == 404)
            #expect(hidden.body == unknown.body)
            #expect(try await call(.get, "/v1/operations/\(operation.operationId)", as: shop).status == 200)
            let wrong = PartnerFixture(api: api, clientID: shop.clientID, clientSecret: "wrong")
            #expect(try await call(.post, "/v1/operations", as: wrong, body: body).status == 401)
            #expect(try await call(.delete, "/v1/operations/\(operation.operationId)", as: shop).decode(OperationResponse.self).status == .canceled)
        }
    }

    @Test("an admin key needs operations:write to create and operations:read to read")
    func adminScopes() async throws {
        try await TestServer().run { api in
            let (userID, _) = try await api.userWithPhone("alice@example.com")
            let reader = try await api.services.adminKeys.create(name: "reader", scopes: "operations:read").key
            let body = try WireJSON.encoder().encode(Self.paymentRequest(userID))
            let refused = try await api.send(.post, "/v1/operations", bearer: reader, body: body)
            #expect(refused.status == 403)
            let created = try await api.createOperation(Self.paymentRequest(userID)).decode(OperationResponse.self)
            #expect(try await api.send(.get, "/v1/operations/\(created.operationId)", bearer: reader).status == 200)
            #expect(try await api.send(.delete, "/v1/operations/\(created.operationId)", bearer: reader).status == 403)
        }
    }

    @Test("50 parallel approve, reject and cancel attempts leave exactly one final status")
    func parallelFinalStatus() async throws {
        try await TestServer().run { api in
            let (userID, phone) = try await api.userWithPhone("alice@example.com")
            let operation = try await api.createOperation(Self.paymentRequest(userID)).decode(OperationResponse.self)
            let shown = try #require(try await phone.pending().first)
            let approval = try phone.approval(for: shown)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        switch index % 3 {
                        case 0: try await phone.approve(shown, approval).status
                        case 1: try await phone.reject(operation.operationId, .other).status
                        default: try await api.operation(operation.operationId, method: .delete).status
                        }
                    }
                }
                var all: [Int] = []
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            let final = try await api.operation(operation.operationId).decode(OperationResponse.self)
            #expect(final.status.isFinal)
            let finished = try await Self.audit(api).filter { $0.event == "operation.finished" }
            #expect(finished.map(\.outcome) == [final.status.rawValue])
        }
    }

    @Test("openapi.yaml documents the operation routes, their security schemes and problem codes")
    func documented() async throws {
        try await TestServer().run { api in
            let text = String(decoding: try await api.send(.get, "/openapi.yaml").body, as: UTF8.self)
            for path in [
                "/v1/operations:", "/v1/operations/nonce:", "/v1/operations/pending:", "/v1/operations/{id}:",
                "/v1/operations/{id}/approve:", "/v1/operations/{id}/reject:",
            ] {
                #expect(text.contains("\n  \(path)\n"), "\(path) is not documented")
            }
            for code in [ProblemCode.operationNotFound, .operationClosed, .operationNoDevice, .deviceRequestInvalid] {
                #expect(text.contains("- \(code.rawValue)\n"), "\(code) is not in the Problem.code enum")
            }
            for scheme in ["    partnerClient:\n", "    deviceSignature:\n", "SCA-Device-Nonce"] {
                #expect(text.contains(scheme))
            }
        }
    }
}
