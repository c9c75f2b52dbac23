import Foundation
import SCACore
import Testing

/// `reject` with `not_me` feeds the risk engine: the user's next payments raise
/// `reported_not_me`, which takes every exemption away, for `notMeSignalDays`.
@Suite("Operation fraud signal")
struct OperationFraudSignalTests {
    @Test("after a not_me rejection the user's low-value payment needs SCA (reported_not_me); other reasons and the end of the window do not")
    func notMeStepsUp() async throws {
        try await TestServer {
            $0.risk.exemptLowValue = true
            $0.risk.newDeviceHours = 0
        }.run { api in
            var user = try await api.signIn("victim@example.com")
            let before = try api.decodeChallenge(try await api.pay(user, ExemptionTests.eur("10.00")))
            #expect(before.exemption == .lowValue)

            var device = TestDevice()
            try await api.activate(&device, userID: user.id)
            let phone = OperationPhone(api: api, device: device)
            func reject(_ reason: OperationRejectReason) async throws {
                let created = try await api.createOperation(OperationFlowTests.paymentRequest(user.id))
                let operation = try created.decode(OperationResponse.self)
                #expect(try await phone.reject(operation.operationId, reason).status == 200)
            }

            // A reason other than not_me is no fraud signal.
            try await reject(.wrongAmount)
            let stillExempt = try api.decodeChallenge(try await api.pay(user, ExemptionTests.eur("10.00")))
            #expect(stillExempt.exemption == .lowValue)

            try await reject(.notMe)
            let stepped = try api.decodeChallenge(try await api.pay(user, ExemptionTests.eur("10.00")))
            #expect(stepped.state == .pending)
            #expect(stepped.exemption == nil)
            #expect(stepped.requiredCategories == 2)
            let decisions = try await api.auditEvents("risk.decision")
            #expect(decisions.last?.details["signals"]?.contains("reported_not_me") == true)

            // 30 days later (notMeSignalDays) the signal is gone.
            api.clock.advance(by: 30 * 86_400)
            user = try await api.signIn(user)
            let later = try api.decodeChallenge(try await api.pay(user, ExemptionTests.eur("10.00")))
            #expect(later.exemption == .lowValue)
            #expect(try await api.auditEvents("risk.decision").last?.details["signals"]?.contains("reported_not_me") == false)
        }
    }
}
