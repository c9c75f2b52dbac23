import Foundation
import SCACore

// The console's sign-in and step-up: challenges of the server's own, never a partner's, so the
// session they open is the operator's first-party one.
extension ConsoleService {
    /// The sign-in's steps, on the pages' factor forms.
    package var signIn: FirstPartySignIn { FirstPartySignIn(challenges: challenges) }

    /// A new login challenge for the signed-in operator, whose completion renews their
    /// authentication (``stepUp(_:with:)``).
    package func startStepUp(for actor: ConsoleOperator) async throws -> ChallengeResponse {
        try await signIn.start(email: actor.email)
    }
}
