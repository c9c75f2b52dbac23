import SCACore
import SCAStorage

/// An audit event made ready by ``AuditTrail/prepare(_:outcome:userID:deviceID:challengeID:sessionID:operation:method:channel:refusal:details:)``:
/// the entry to append inside another write, and the typed facts its counters need once that
/// write has committed.
package struct PreparedAuditEvent: Sendable {
    let event: AuditEvent
    let outcome: String
    let operation: OperationKind?
    let method: AuthenticationMethod?
    let channel: OutboundMessage.Channel?
    let refusal: RateRefusal?
    package let draft: AuditEntryDraft
}
