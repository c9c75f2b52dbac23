import Foundation
import SCACore
import Testing

/// `pushNeutralText`: a payment's push can leave the amount and payee out, so they
/// never reach the third-party push gateway; the phone still gets them from the server.
@Suite("Operation push text")
struct OperationPushTextTests {
    @Test("with pushNeutralText a payment's push names neither amount nor payee; the pending operation still does")
    func neutral() async throws {
        try await TestServer { $0.pushNeutralText = true }.run { api in
            let (userID, phone) = try await api.userWithPhone("quiet@example.com")
            let created = try await api.createOperation(OperationFlowTests.paymentRequest(userID)).decode(OperationResponse.self)
            let pushed = try #require(try api.services.outbox?.messages().last)
            #expect(pushed.operationId == created.operationId)
            #expect(pushed.text == "You have a payment to approve")
            #expect(!pushed.text.contains("125") && !pushed.text.contains("ACME"))
            let pending = try #require(try await phone.pending().first)
            #expect(pending.transaction?.payee.name == "ACME SAS")
        }
    }
}
