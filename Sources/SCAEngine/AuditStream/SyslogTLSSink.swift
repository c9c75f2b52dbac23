import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import SCACore

/// Audit entries as syslog messages (RFC 5424) over TLS (RFC 5425): one message per entry, its
/// text the entry's line as `audit export` writes it (hash included), framed by octet counting.
/// One connection is kept and opened again after a failure; TLS 1.2 or 1.3, the collector's
/// certificate checked against `auditStream.caFile` (the system's roots without it) and the
/// URL's host.
///
/// Syslog over TLS has no acknowledgement: a batch counts as taken once TLS has written it to the
/// connection. A collector that crashes after receiving it may lose what it had not stored;
/// the HTTPS sink, which waits for a 2xx, does not.
package actor SyslogTLSSink: AuditSink {
    let host: String
    let port: Int
    let context: NIOSSLContext
    let hostname: String
    private var channel: (any Channel)?

    /// - Parameter caFile: PEM certificates to trust; nil: the system's.
    package init(host: String, port: Int, caFile: String?) throws {
        self.host = host
        self.port = port
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        if let caFile { configuration.trustRoots = .file(caFile) }
        context = try NIOSSLContext(configuration: configuration)
        hostname = Self.localHostname()
    }

    package func send(_ entries: [AuditEntry]) async throws {
        let channel = try await connected()
        var buffer = channel.allocator.buffer(capacity: entries.count * 600)
        for entry in entries { buffer.writeBytes(Self.frame(entry, hostname: hostname)) }
        do {
            try await channel.writeAndFlush(buffer)
        } catch {
            self.channel = nil
            try? await channel.close()
            throw error
        }
    }

    /// The open connection, or a new one.
    private func connected() async throws -> any Channel {
        if let channel, channel.isActive { return channel }
        channel = nil
        let context = self.context
        let serverName = SpecialPurposeAddress.literal(host) == nil ? host : nil
        let opened = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        try NIOSSLClientHandler(context: context, serverHostname: serverName))
                }
            }
            .connect(host: host, port: port).get()
        channel = opened
        return opened
    }

    /// `LENGTH SP <PRI>1 TIMESTAMP HOSTNAME sca-server - MSGID - LINE`: facility authpriv (10),
    /// severity warning (4) for a refusal, failure or block and informational (6) otherwise;
    /// the event as MSGID.
    static func frame(_ entry: AuditEntry, hostname: String) -> [UInt8] {
        let severity = ["rejected", "failure", "failed", "temporary", "permanent", "denied"].contains(entry.draft.outcome) ? 4 : 6
        let messageID = String(entry.draft.event.unicodeScalars.filter { (33...126).contains($0.value) }.prefix(32))
        var line = AuditExport.line(entry)
        line.removeLast()  // the newline: the octet count frames the message
        let header = "<\(10 * 8 + severity)>1 \(AuditEntry.rfc3339(entry.draft.time)) \(hostname) sca-server - \(messageID.isEmpty ? "-" : messageID) - "
        let message = Array(header.utf8) + line
        return Array("\(message.count) ".utf8) + message
    }

    static func localHostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "-" }
        let name = String(cString: buffer).unicodeScalars.filter { (33...126).contains($0.value) }
        return name.isEmpty ? "-" : String(String.UnicodeScalarView(name.prefix(255)))
    }
}
