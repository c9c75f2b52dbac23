import Foundation
import SCAStorage
import Testing

/// A partner client's failed authentications, as pure transitions on its counters.
@Suite("Client authentication throttle")
struct ClientAuthenticationThrottleTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("the tenth failure in a row throttles for a minute; a success in between starts the count again")
    func throttle() {
        var state = LockoutState()
        for _ in 1..<LockoutState.clientFailureLimit {
            let throttled = state.recordClientFailure(now: Self.t0)
            #expect(!throttled)
        }
        state.recordClientSuccess()
        #expect(state.failedAttempts == 0)
        for _ in 1..<LockoutState.clientFailureLimit {
            let throttled = state.recordClientFailure(now: Self.t0)
            #expect(!throttled)
        }
        #expect(state.clientThrottle(now: Self.t0) == nil)
        let throttled = state.recordClientFailure(now: Self.t0)
        #expect(throttled)
        #expect(state.clientThrottle(now: Self.t0) == 60)
        #expect(state.clientThrottle(now: Self.t0 + 59) == 1)
        #expect(state.clientThrottle(now: Self.t0 + 60) == nil)
        #expect(state.failedAttempts == 0)
        #expect(ClientAuthentication.key(for: "cli_a") == "client-auth:cli_a")
    }
}
