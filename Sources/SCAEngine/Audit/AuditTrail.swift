import Foundation
import Logging
import SCACore
import SCAStorage

/// The one place security events are emitted: each event is appended to the hash-chained
/// audit trail in the store and counted in the metrics.
///
/// Events are recorded after the state change they describe, and a failed audit write does
/// not undo it or fail the request: it is logged at error level (with the event, never a
/// secret) so monitoring can alert on it. Failing closed would turn an audit database
/// hiccup into refused logins and payments, and the change itself is already committed;
/// the log line is the record of last resort.
///
/// A judged proof is the exception: its entries (the proof, a completion or failure,
/// the tokens issued) are prepared here and appended in the proof's own write transaction
/// (``SCAStore/commitProof(_:)``), so the change and its record commit together or not at all.
/// So is a new challenge's `challenge.created` (``SCAStore/insertChallenge(_:auditing:)``).
package struct AuditTrail: Sendable {
    let store: any SCAStore
    let metrics: ServerMetrics
    let runtime: ServerRuntime
    let logger: Logger
    /// The keyed hash that seals an entry's personal facts (``AuditEntryDraft/personalDigest``).
    let personalMAC: @Sendable ([UInt8]) -> [UInt8]

    /// The purpose of the server subkey that seals personal facts.
    package static let personalFactsPurpose = "audit-personal-facts"

    package init(store: any SCAStore, metrics: ServerMetrics, runtime: ServerRuntime, logger: Logger, box: SecretBox) {
        self.store = store
        self.metrics = metrics
        self.runtime = runtime
        self.logger = logger
        personalMAC = { box.mac($0, purpose: Self.personalFactsPurpose) }
    }

    /// Who acts, when a caller knows better than the default (`client` within a request,
    /// `cli` outside one): the admin API sets `admin` for its requests.
    @TaskLocal package static var actor: String?

    /// Records one event: counts it, then appends it to the trail.
    /// - Parameters:
    ///   - outcome: `success`, `accepted`, `rejected`, `temporary`, `permanent`, …
    ///   - operation, method, channel: what the event is about, typed: they label the matching
    ///     counters (closed sets by construction) and are written to the entry's details under
    ///     those names.
    ///   - refusal: for `rate.limited`, what was refused and by which budgets; written to the
    ///     details as `action` and `budget` (the scopes, comma-separated).
    ///   - details: further facts for the reader; never a secret.
    package func record(
        _ event: AuditEvent, outcome: String = "success", userID: String? = nil, deviceID: String? = nil,
        challengeID: String? = nil, sessionID: String? = nil, operation: OperationKind? = nil,
        method: AuthenticationMethod? = nil, channel: OutboundMessage.Channel? = nil, refusal: RateRefusal? = nil,
        details: [String: String] = [:]
    ) async {
        let prepared = prepare(
            event, outcome: outcome, userID: userID, deviceID: deviceID, challengeID: challengeID, sessionID: sessionID,
            operation: operation, method: method, channel: channel, refusal: refusal, details: details)
        count(prepared)
        do {
            _ = try await store.appendAuditEntry(prepared.draft)
        } catch {
            logger.error(
                "audit entry not written",
                metadata: [
                    "event": "\(event.rawValue)", "outcome": "\(outcome)", "user": "\(userID ?? "-")",
                    "error": "\(String(describing: type(of: error)))",
                ])
        }
    }

    /// The entry ``record(_:outcome:userID:deviceID:challengeID:sessionID:operation:method:channel:refusal:details:)``
    /// would append, for a caller that appends it in its own transaction
    /// (``SCAStore/commitProof(_:)``), so the entry commits with the change it describes.
    /// Nothing is counted until ``committed(_:)``.
    package func prepare(
        _ event: AuditEvent, outcome: String = "success", userID: String? = nil, deviceID: String? = nil,
        challengeID: String? = nil, sessionID: String? = nil, operation: OperationKind? = nil,
        method: AuthenticationMethod? = nil, channel: OutboundMessage.Channel? = nil, refusal: RateRefusal? = nil,
        details: [String: String] = [:]
    ) -> PreparedAuditEvent {
        var details = details
        if let operation { details["operation"] = operation.rawValue }
        if let method { details["method"] = method.rawValue }
        if let channel { details["channel"] = channel.rawValue }
        if let refusal {
            details["action"] = refusal.action.rawValue
            details["budget"] = refusal.scopes.map(\.rawValue).joined(separator: ",")
        }
        let request = RequestInfo.current
        let draft = AuditEntryDraft(
            time: runtime.now(), event: event.rawValue, actor: Self.actor ?? (request == nil ? "cli" : "client"),
            userID: userID, deviceID: deviceID, challengeID: challengeID, sessionID: sessionID,
            clientAddress: request?.clientAddress, requestID: request?.requestID, outcome: outcome, details: details
        ).sealingPersonalFacts(with: personalMAC)
        return PreparedAuditEvent(
            event: event, outcome: outcome, operation: operation, method: method, channel: channel, refusal: refusal, draft: draft)
    }

    /// Counts prepared events whose entries were committed.
    package func committed(_ events: [PreparedAuditEvent]) {
        for event in events { count(event) }
    }

    private func count(_ prepared: PreparedAuditEvent) {
        count(
            prepared.event, outcome: prepared.outcome, operation: prepared.operation, method: prepared.method,
            channel: prepared.channel, refusal: prepared.refusal)
    }

    /// The counters an event drives. Labels come from the event's typed facts (operation
    /// kinds, methods, channels), never from ids or free-form details.
    private func count(
        _ event: AuditEvent, outcome: String, operation: OperationKind?, method: AuthenticationMethod?,
        channel: OutboundMessage.Channel?, refusal: RateRefusal?
    ) {
        switch event {
        case .challengeCreated, .challengeCompleted, .challengeFailed, .challengeExpired, .challengeCancelled:
            metrics.recordChallenge(
                operation: operation?.rawValue ?? "unknown",
                event: String(event.rawValue.dropFirst("challenge.".count)))
        case .proofAccepted, .proofRejected:
            metrics.recordProof(method: method?.rawValue ?? "unknown", outcome: outcome)
        case .userLocked:
            metrics.recordLockout(kind: outcome)
        case .tokenIssued:
            metrics.recordToken(operation: "issued")
        case .tokenRefreshed:
            metrics.recordToken(operation: "refreshed")
        case .codeSent:
            metrics.recordCodeSent(channel: channel?.rawValue ?? "unknown")
        case .rateLimited:
            // One count per spent budget: a refusal by two budgets shows in both series.
            guard let refusal else { break }
            for scope in refusal.scopes {
                metrics.recordRateLimited(action: refusal.action, budget: scope)
            }
            // The overview counts refusals, however many budgets each spent.
            metrics.history.record(.budgetRefusals)
        default:
            break
        }
    }
}
