import Foundation

// Audit streaming: which sink `auditStream.url` names, checked at load.
extension ServerConfiguration {
    /// The sink `auditStreamURL` names.
    package enum AuditStreamTarget: Equatable, Sendable {
        case https(URL)
        case syslogTLS(host: String, port: Int)
    }

    /// The default port of syslog over TLS.
    static let syslogTLSPort = 6514

    /// nil when no stream is configured.
    package var auditStreamTarget: AuditStreamTarget? {
        guard let text = auditStreamURL, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            let host = url.host, !host.isEmpty
        else { return nil }
        switch scheme {
        case "https", "http": return .https(url)
        case "syslog+tls": return .syslogTLS(host: host, port: url.port ?? Self.syslogTLSPort)
        default: return nil
        }
    }

    func validateAuditStream() throws {
        guard let text = auditStreamURL else { return }
        guard let target = auditStreamTarget else {
            throw ConfigurationError("auditStream.url must be an https:// URL or syslog+tls://host[:port]")
        }
        if case .https = target {
            guard let secret = auditStreamSecret, secret.utf8.count >= 32 else {
                throw ConfigurationError("auditStream.secret (at least 32 characters) is required with an https audit stream")
            }
        }
        // Plain HTTP would carry addresses and user ids in clear: only to this machine.
        if case .https(let url) = target, url.scheme?.lowercased() == "http",
            !["localhost", "127.0.0.1", "::1", "[::1]"].contains(url.host?.lowercased() ?? "")
        {
            throw ConfigurationError("auditStream.url must be https:// (http:// only to a collector on this machine)")
        }
        if case .https(let url) = target, url.user != nil || url.password != nil || text.contains("@") {
            throw ConfigurationError("auditStream.url must not carry a user or password; the stream is signed with auditStream.secret")
        }
        if let file = auditStreamCAFile, !FileManager.default.isReadableFile(atPath: file) {
            throw ConfigurationError("auditStream.caFile cannot be read: \(file)")
        }
    }
}
