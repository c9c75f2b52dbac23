import Foundation
import SCACore

/// Audit entries POSTed to an HTTPS endpoint as JSON lines (`application/jsonl`, each line as
/// `audit export` writes it, hash included), signed like a partner webhook: HMAC-SHA256 with
/// `auditStream.secret` over `timestamp + "." + body` in `SCA-Webhook-Signature`, the time in
/// `SCA-Webhook-Timestamp`. Any 2xx takes the batch; the request goes through the outbound rules
/// (no redirect followed, the host resolved once).
package struct AuditWebhookSink: AuditSink {
    let url: URL
    let secret: String
    let outbound: OutboundHTTP
    let now: @Sendable () -> Date
    let timeout: Duration

    package init(url: URL, secret: String, outbound: OutboundHTTP, now: @escaping @Sendable () -> Date, timeout: Duration = .seconds(10)) {
        self.url = url
        self.secret = secret
        self.outbound = outbound
        self.now = now
        self.timeout = timeout
    }

    package func send(_ entries: [AuditEntry]) async throws {
        let body = entries.flatMap(AuditExport.line)
        let timestamp = Int(now().timeIntervalSince1970)
        let headers = [
            ("Content-Type", AuditExport.contentType),
            (WebhookSignature.timestampHeader, String(timestamp)),
            (WebhookSignature.signatureHeader, WebhookSignature.sign(body: body, timestamp: timestamp, secret: secret)),
            ("SCA-Audit-Sequences", "\(entries.first?.sequence ?? 0)-\(entries.last?.sequence ?? 0)"),
        ]
        let status = try await outbound.post(url, headers: headers, body: body, timeout: timeout, for: .auditStream)
        guard (200..<300).contains(status) else { throw AuditSinkRefusal(status: status) }
    }
}
