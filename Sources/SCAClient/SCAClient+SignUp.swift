import Foundation
import SCACore

// Sign up or in with a one-time code.
extension SCAClient {
    /// Signs up or in with an e-mail address, as one flow: the server offers the address's
    /// e-mail code whether it knows the address or not, and the usual loop collects it.
    ///
    /// A known user goes on with their second category and ends signed in. A new user (when
    /// the server allows sign-ups) is created by that code and holds an enrolment token: the
    /// collector is asked for the second element (``FactorCollector/newSecret(for:)``), which
    /// is set with the token, and the flow signs in with it and a new e-mail code, so it ends
    /// signed in too, with strong customer authentication.
    ///
    /// - Parameters:
    ///   - email: the address.
    ///   - collector: asks the user (codes, the second factor, the new secret).
    ///   - prefill: secrets already typed, used on their method's first try.
    /// - Returns: the login tokens, also saved in the token store.
    /// - Throws: as ``authenticate(challenge:using:prefill:)``; ``SCAClientError/server(_:)`` with
    ///   `request.invalid` for a new secret the server refuses (the enrolment token is not spent
    ///   then, but the flow ends: start it again).
    public func signUpOrIn(
        email: String, using collector: any FactorCollector, prefill: [AuthenticationMethod: String] = [:]
    ) async throws -> TokenResponse {
        try await signUpOrIn(SignUpOrInRequest(email: email), named: email, using: collector, prefill: prefill) { prefill in
            try await logIn(email: email, using: collector, prefill: prefill)
        }
    }

    /// Signs up or in with a phone number (a server with `signUp` `phone` or `email,phone`), as
    /// ``signUpOrIn(email:using:prefill:)`` does with an address: the server offers the
    /// number's SMS code whether it knows the number or not. A new user (created by that code,
    /// holding an enrolment token) is asked for the second element
    /// (``FactorCollector/newSecret(for:)`` with the number), which is set with the token; the
    /// flow then signs in by the same number with it and a new SMS code, so it ends signed in
    /// with strong customer authentication.
    ///
    /// - Parameters:
    ///   - phone: the number, E.164 (`+33612345678`; spaces and dashes are dropped by the server).
    ///   - collector: asks the user (codes, the second factor, the new secret).
    ///   - prefill: secrets already typed, used on their method's first try.
    /// - Returns: the login tokens, also saved in the token store.
    /// - Throws: as ``signUpOrIn(email:using:prefill:)``; ``SCAClientError/server(_:)`` with
    ///   `request.invalid` for a number that is not E.164.
    public func signUpOrIn(
        phone: String, using collector: any FactorCollector, prefill: [AuthenticationMethod: String] = [:]
    ) async throws -> TokenResponse {
        let request = SignUpOrInRequest(phone: phone)
        return try await signUpOrIn(request, named: phone, using: collector, prefill: prefill) { prefill in
            // The number is now a known login phone: signing up or in again is a normal login.
            let login: ChallengeResponse = try await transport.send(.post, "v1/signup-or-in", body: request)
            return try await authenticate(challenge: login, using: collector, prefill: prefill)
        }
    }

    /// The flow both sign-ups share: the code of `request`'s address or number, then for a new
    /// user the second element set with the enrolment token and `logIn` with it prefilled.
    private func signUpOrIn(
        _ request: SignUpOrInRequest, named identifier: String, using collector: any FactorCollector,
        prefill: [AuthenticationMethod: String],
        logIn: ([AuthenticationMethod: String]) async throws -> TokenResponse
    ) async throws -> TokenResponse {
        let challenge: ChallengeResponse = try await transport.send(.post, "v1/signup-or-in", body: request)
        let first = try await authenticate(challenge: challenge, using: collector, prefill: prefill)
        guard first.operation == .enrolment else { return first }
        let secret = try await collector.newSecret(for: identifier)
        let _: EnrolmentResponse = try await transport.send(
            .post, "v1/me/enrolment", body: secret.request, bearer: first.accessToken)
        return try await logIn([secret.method: secret.value])
    }

    /// The signed-in user's own profile (`GET /v1/me`).
    /// - Throws: ``SCAClientError/notSignedIn`` without a session; ``SCAClientError/server(_:)``.
    public func me() async throws -> ProfileResponse {
        try await withAccessToken { token in try await transport.send(.get, "v1/me", bearer: token) }
    }
}
