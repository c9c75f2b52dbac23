import Foundation
import HTTPTypes
import NIOCore
import SCACore
import SCAEngine
import Testing

/// Operations have their own budget per backend: a bank's backend on one address
/// creates more operations than that address may open challenges, up to
/// `operationLimitsPerCaller`, then gets the usual `429 rate.limited`.
@Suite("Operation rate budget")
struct OperationRateLimitTests {
    @Test("more than 60 operations a minute from one backend address succeed up to the caller's budget, then 429")
    func ownBudget() async throws {
        let server = try await TestServer {
            $0.trustedProxyHeader = SendLimitTests.proxyHeader
            $0.rateLimits.operationsPerCaller = [RateWindow(count: 70, seconds: 60)]
        }
        try await server.run { api in
            #expect(api.services.configuration.rateLimits.challengesPerClient.first == RateWindow(count: 60, seconds: 60))
            let (shop, userID, _) = try await PartnerWebhookTests.partner(api, url: "https://hooks.shop.example/sca")
            var headers = PartnerWebhookTests.basic(shop)
            headers[try #require(HTTPField.Name(SendLimitTests.proxyHeader))] = "192.0.2.10"
            func create() async throws -> (Int, APIResponse) {
                let response = try await api.client.execute(
                    uri: "/v1/operations", method: .post, headers: headers,
                    body: ByteBuffer(bytes: try WireJSON.encoder().encode(OperationFlowTests.paymentRequest(userID))))
                return (Int(response.status.code), APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body)))
            }
            var statuses: [Int] = []
            for _ in 0..<70 { statuses.append(try await create().0) }
            #expect(statuses == Array(repeating: 201, count: 70))
            let (status, refusal) = try await create()
            #expect(status == 429)
            #expect(refusal.problem?.code == .rateLimited)
            #expect(refusal.headers[.retryAfter] == "60")
            let limited = try await api.auditEvents("rate.limited")
            #expect(limited.count == 1)
            #expect(limited.first?.details["action"] == "operation")
            #expect(limited.first?.details["budget"] == "caller")
            // The address's challenge budget was not used by the operations: a person behind
            // the same address still opens a challenge.
            _ = try await api.createUser("walkin@example.com")
            #expect(try await api.createChallenge(email: "walkin@example.com", from: "192.0.2.10").status == 201)
            api.clock.advance(by: 60)
            #expect(try await create().0 == 201)
        }
    }
}
