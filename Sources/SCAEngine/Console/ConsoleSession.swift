import Foundation
import SCACore

/// An operator signed in to the console: what the console keeps between requests, sealed in its
/// cookie. It names the store session of the sign-in, so the session's idle limit and its end
/// (sign-out, or an operator's "end all sessions") hold on every instance.
package struct ConsoleSession: Codable, Sendable, Equatable {
    /// The store session the sign-in opened (its tokens' `sid`).
    package var sessionID: String
    package var userID: String
    /// The permissions the sign-in's token carried; each request narrows them to what the
    /// operator's roles grant then.
    package var permissions: [String]
    package var acr: String
    package var amr: [AuthenticationMethod]
    /// When the operator last proved who they are: the sign-in, or the latest step-up.
    package var authenticatedAt: Date
}
