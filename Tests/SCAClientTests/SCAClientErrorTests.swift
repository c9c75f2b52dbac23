import SCAClient
import SCACore
import Testing

/// The error's codes are the contract apps switch on: each reason has its own, and the words the
/// terminal app prints do not drift.
@Suite struct SCAClientErrorTests {
    /// One error per code, built the way the SDK builds it.
    static let oneOfEach: [SCAClientError] = [
        .server(Problem(status: 409, code: .challengeExpired, title: "Challenge expired")),
        .cancelled,
        .transactionDeclined,
        .noUsableMethod(missingCategories: 2),
        .deviceNotActivated,
        .deviceRefused(.deviceBlocked),
        .locked(retryAfter: 900),
        .notSignedIn,
        .unexpectedResponse(status: 502),
    ]

    @Test func everyReasonHasItsOwnCode() {
        let codes = Self.oneOfEach.map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(Set(codes.map(\.description)).count == codes.count, "code names are distinct too")
        #expect(codes == [
            .server, .cancelled, .transactionDeclined, .noUsableMethod, .deviceNotActivated, .deviceRefused, .locked,
            .notSignedIn, .unexpectedResponse,
        ])
    }

    @Test func eachCodeCarriesItsFacts() {
        let problem = Problem(status: 409, code: .challengeExpired, title: "Challenge expired")
        #expect(SCAClientError.server(problem).problem == problem)
        #expect(SCAClientError.server(problem).problemCode == .challengeExpired)
        #expect(SCAClientError.deviceRefused(.deviceRemoved).problemCode == .deviceRemoved)
        #expect(SCAClientError.deviceRefused(.deviceRemoved).problem == nil)
        #expect(SCAClientError.locked(retryAfter: 900).retryAfter == 900)
        #expect(SCAClientError.locked(retryAfter: nil).retryAfter == nil)
        #expect(SCAClientError.noUsableMethod(missingCategories: 2).missingCategories == 2)
        #expect(SCAClientError.unexpectedResponse(status: 502).status == 502)
        #expect(SCAClientError.cancelled.problemCode == nil)
        #expect(SCAClientError.cancelled.status == nil)
    }

    @Test func errorsCompareByCodeAndFacts() {
        #expect(SCAClientError.locked(retryAfter: 900) == .locked(retryAfter: 900))
        #expect(SCAClientError.locked(retryAfter: 900) != .locked(retryAfter: nil))
        #expect(SCAClientError.deviceRefused(.deviceBlocked) != .deviceRefused(.deviceRemoved))
        #expect(SCAClientError.cancelled != .transactionDeclined)
    }

    @Test func descriptionsAreStable() {
        #expect(SCAClientError.cancelled.description == "cancelled: the authentication was cancelled")
        #expect(SCAClientError.locked(retryAfter: 900).description == "user.locked: too many failed attempts; try again in 900 s")
        #expect(
            SCAClientError.noUsableMethod(missingCategories: 2).description
                == "no usable method: 2 more categories are needed and none of the offered methods can be used here")
        #expect(SCAClientError.unexpectedResponse(status: 502).description == "unexpected response from the server (HTTP 502)")
        #expect(SCAClientError.Code.deviceRefused.description == "deviceRefused")
    }
}
