import Foundation
import SCACore

/// A sign-in on the server's own pages (the operator console, the account page): a login
/// challenge of the server's, never a partner's, so the session it opens is first-party, and
/// the steps the pages' factor forms take on it.
package struct FirstPartySignIn: Sendable {
    let challenges: ChallengeService

    /// A login challenge for the user who typed `email`.
    package func start(email: String) async throws -> ChallengeResponse {
        try await challenges.create(CreateChallengeRequest(operation: .login, user: UserReference(email: email)))
    }

    /// A discoverable passkey login: the passkey's user handle names the user.
    package func startWithPasskey() async throws -> ChallengeResponse {
        try await challenges.create(CreateChallengeRequest(operation: .login, user: UserReference(), methodHint: .passkey))
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

    /// Ends a sign-in (or a confirmation) the user walked away from.
    package func cancel(_ challengeID: String) async throws {
        _ = try await challenges.cancel(challengeID)
    }
}
