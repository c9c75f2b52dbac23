import Foundation
import SCACore

// The console's sign-in and step-up: challenges of the server's own, never a partner's, so the
// session they open is the operator's first-party one.
extension ConsoleService {
    /// A login challenge for the operator who typed `email`.
    package func startSignIn(email: String) async throws -> ChallengeResponse {
        try await challenges.create(CreateChallengeRequest(operation: .login, user: UserReference(email: email)))
    }

    /// A discoverable passkey login: the passkey's user handle names the operator.
    package func startPasskeySignIn() async throws -> ChallengeResponse {
        try await challenges.create(CreateChallengeRequest(operation: .login, user: UserReference(), methodHint: .passkey))
    }

    /// A new login challenge for the signed-in operator, whose completion renews their
    /// authentication (``stepUp(_:with:)``).
    package func startStepUp(for actor: ConsoleOperator) async throws -> ChallengeResponse {
        try await startSignIn(email: actor.email)
    }

    package func challenge(_ id: String) async throws -> ChallengeResponse {
        try await challenges.get(id)
    }

    package func sendCode(_ request: SendCodeRequest, for challengeID: String) async throws -> CodeSentResponse {
        try await challenges.sendCode(request, for: challengeID)
    }

    package func submit(_ proof: ProofRequest, to challengeID: String) async throws -> ProofResponse {
        try await challenges.submit(proof, to: challengeID)
    }

    /// Ends a sign-in the operator walked away from.
    package func cancel(_ challengeID: String) async throws {
        _ = try await challenges.cancel(challengeID)
    }
}
