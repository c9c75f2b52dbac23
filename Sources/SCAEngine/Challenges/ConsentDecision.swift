import SCACore
import SCAStorage

/// A consent that the proof completing its challenge decides, in the proof's own write: the
/// hosted consent page accepts its consent there, so the acceptance (status, webhook event,
/// audit entry) commits with the proof or not at all, and costs no write of its own.
package struct ConsentDecision: Sendable {
    /// The change to write, from the tokens the completing proof issues (a consent keeps its
    /// partner's access token sealed); nil when the consent cannot take it. It cannot fail:
    /// the proof's write never fails for the consent's sake.
    package typealias Deciding = @Sendable (_ tokens: TokenResponse) async -> ConsentDecision?

    package let change: ConsentChange
    /// The change's audit event, counted once the write commits it.
    package let event: PreparedAuditEvent

    package init(change: ConsentChange, event: PreparedAuditEvent) {
        self.change = change
        self.event = event
    }
}
