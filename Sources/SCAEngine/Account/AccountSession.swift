import Foundation

/// A user signed in to their account page: what the page keeps between requests, sealed in its
/// cookie. It names the store session of the sign-in, so the session's idle limit and its end
/// (sign-out, "end this session" from another device, an operator's "end all sessions") hold on
/// every instance.
package struct AccountSession: Codable, Sendable, Equatable {
    /// The store session the sign-in opened (its tokens' `sid`).
    package var sessionID: String
    package var userID: String
    package var authenticatedAt: Date
}
