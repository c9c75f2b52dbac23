import SCAEngine
import Testing

@Suite("Retention and audit stream settings")
struct RetentionSettingsTests {
    @Test("RTS-safe defaults; ages in days or hours from the file or SCA_ variables; the audit trail is kept whole unless told")
    func defaults() throws {
        let loader = ConfigurationLoader()
        let defaults = try loader.load(file: nil, environment: [:], flags: [:])
        #expect(defaults.retention.challenges == 90 * 86_400)
        #expect(defaults.retention.sessions == 30 * 86_400)
        #expect(defaults.retention.audit == nil)
        #expect(defaults.auditStreamURL == nil)
        let set = try loader.load(
            file: nil,
            environment: ["SCA_RETENTION_CHALLENGES": "36h", "SCA_AUDIT_RETENTION": "1825d"],
            flags: ["auditStream.url": "syslog+tls://siem.internal", "retention.passInterval": "60"])
        #expect(set.retention.challenges == 36 * 3_600)
        #expect(set.retention.audit == 1_825.0 * 86_400)
        #expect(set.retention.passInterval == 60)
        #expect(set.auditStreamTarget == .syslogTLS(host: "siem.internal", port: 6514))
    }

    @Test("a short age, a bad stream URL, a missing secret or a plain-HTTP stream off this machine is refused at load")
    func refused() {
        let loader = ConfigurationLoader()
        let secret = String(repeating: "s", count: 32)
        let cases: [(flags: [String: String], says: String)] = [
            (["retention.sessions": "12h"], "retention.sessions must be at least 1d"),
            (["retention.challenges": "off"], "retention.challenges must be a number of days or hours"),
            (["audit.retention": "7d"], "audit.retention must be off or at least 30d"),
            (["retention.passInterval": "1"], "retention.passInterval must be between 10 and 86400"),
            (["auditStream.url": "ftp://siem.internal"], "auditStream.url must be an https:// URL or syslog+tls"),
            (["auditStream.url": "https://siem.internal/sca"], "auditStream.secret (at least 32 characters) is required"),
            (["auditStream.url": "https://siem.internal/sca", "auditStream.secret": "short"], "auditStream.secret"),
            (["auditStream.url": "http://siem.internal/sca", "auditStream.secret": secret], "auditStream.url must be https://"),
            (["auditStream.url": "https://u:p@siem.internal/sca", "auditStream.secret": secret], "must not carry a user or password"),
            (["auditStream.url": "syslog+tls://siem.internal", "auditStream.caFile": "/nonexistent/ca.pem"], "auditStream.caFile cannot be read"),
        ]
        for (flags, says) in cases {
            #expect("\(flags)") {
                try loader.load(file: nil, environment: [:], flags: flags)
            } throws: { error in
                (error as? ConfigurationError)?.description.contains(says) == true
            }
        }
    }
}
