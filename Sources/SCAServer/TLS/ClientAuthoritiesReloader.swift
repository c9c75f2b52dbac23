import Foundation
import Logging
import NIOSSL
import SCAEngine
import ServiceLifecycle
import Synchronization
import X509

/// Holds the authorities of `tls.clientCAFile` and replaces them when the file changes, without
/// a restart: read again every `interval` and at SIGHUP, as the server's certificate is. Every
/// new handshake verifies the client's certificate against the authorities as last read (the TLS
/// verification is ours, ``verifyHandshake(_:)``, so it can change between handshakes); so does
/// a certificate forwarded by a trusted proxy. Connections already open keep what they verified.
///
/// A file that cannot be used (unreadable, not PEM, no certificate) keeps the previous
/// authorities in service and is logged once; the next change is tried again.
package final class ClientAuthoritiesReloader: Service, Sendable {
    let file: String
    let interval: Duration
    let logger: Logger
    private let state: Mutex<State>

    private struct State {
        var current: ClientCertificateAuthorities
        var contents: Data
        /// The contents last refused, so a broken file is logged once rather than at every pass.
        var refused: Data?
    }

    /// Reads the file now: a start-up with a bad file fails here.
    /// - Throws: `ConfigurationError` naming the file and what is wrong.
    package init(file: String, interval: Duration = .seconds(2), logger: Logger) throws {
        self.file = file
        self.interval = interval
        self.logger = logger
        let contents = FileManager.default.contents(atPath: file) ?? Data()
        state = Mutex(State(current: try ClientCertificateAuthorities(file: file), contents: contents))
    }

    /// The authorities new handshakes and forwarded certificates are verified against.
    package var current: ClientCertificateAuthorities { state.withLock { $0.current } }

    /// Reads the file again and uses it if it changed and can be used.
    /// - Returns: whether new authorities are now in use.
    @discardableResult
    package func reload() -> Bool {
        guard let contents = FileManager.default.contents(atPath: file) else {
            return refuse(Data(), because: "the file cannot be read")
        }
        let (unchanged, refusedBefore) = state.withLock { ($0.contents == contents, $0.refused == contents) }
        if unchanged || refusedBefore { return false }
        do {
            let authorities = try ClientCertificateAuthorities(file: file)
            state.withLock {
                $0.current = authorities
                $0.contents = contents
                $0.refused = nil
            }
            logger.notice("client certificate authorities reloaded", metadata: ["file": "\(file)"])
            return true
        } catch {
            return refuse(contents, because: "\(error)")
        }
    }

    private func refuse(_ contents: Data, because reason: String) -> Bool {
        let first = state.withLock { state in
            defer { state.refused = contents }
            return state.refused != contents
        }
        if first {
            logger.error(
                "the new client certificate authorities cannot be used; the previous ones are still trusted",
                metadata: ["reason": "\(reason)", "file": "\(file)"])
        }
        return false
    }

    /// The TLS handshake's verification of the client's chain (leaf first, as sent) against the
    /// current authorities, at the time of the handshake.
    @Sendable package func verifyHandshake(_ chain: [NIOSSLCertificate]) async -> NIOSSLVerificationResult {
        guard let leaf = chain.first, let der = try? leaf.toDERBytes(), let certificate = try? ClientCertificate(derBytes: der)
        else { return .failed }
        let intermediates = chain.dropFirst().compactMap { try? $0.toDERBytes() }.compactMap { try? Certificate(derEncoded: $0) }
        return await current.verifies(certificate, intermediates: intermediates, at: Date()) ? .certificateVerified : .failed
    }

    /// Polls the file every `interval` and reloads at each SIGHUP, until a graceful shutdown.
    package func run() async {
        await reloadUntilShutdown(every: interval) { [self] in _ = reload() }
    }
}

// The service group logs each service by its description.
extension ClientAuthoritiesReloader: CustomStringConvertible {
    package var description: String { "ClientAuthoritiesReloader" }
}
