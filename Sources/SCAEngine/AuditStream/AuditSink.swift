import SCACore

/// Where audit entries stream to (`auditStream.url`): a SIEM's HTTPS endpoint or its syslog
/// collector. A send returns once the sink took every entry of the batch, in order, and throws
/// otherwise (the stream sends the batch again later).
package protocol AuditSink: Sendable {
    func send(_ entries: [AuditEntry]) async throws
}
