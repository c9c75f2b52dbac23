import Foundation
import Logging
import NIOCore
import NIOSSL
import SCAEngine
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Holds the server's certificate and gives it to every new TLS handshake, and replaces it
/// when its files change, without a restart: it reads them again every `interval` and at
/// SIGHUP. Connections already open keep the certificate they were made with.
///
/// A new pair that cannot be used (unreadable, not PEM, a key of another certificate) keeps the
/// previous certificate in service and is logged once, when two passes in a row found it (so
/// the moment between the two files' replacements is not); the next change is tried again.
package final class ServerCertificateReloader: Service, Sendable {
    let certificateFile: String
    let privateKeyFile: String
    let interval: Duration
    let logger: Logger
    private let state: Mutex<State>

    private struct State {
        var current: ServerCertificate
        /// The files last refused and why, so a broken pair is logged once rather than at
        /// every pass.
        var refused: ServerCertificate.Files?
        var refusal: String?
        var refusalLogged = false
    }

    /// Reads the certificate now: a start-up with a bad pair fails here.
    /// - Throws: `ConfigurationError` naming the file and what is wrong.
    package init(certificateFile: String, privateKeyFile: String, interval: Duration = .seconds(2), logger: Logger) throws {
        self.certificateFile = certificateFile
        self.privateKeyFile = privateKeyFile
        self.interval = interval
        self.logger = logger
        let files = try ServerCertificate.read(certificateFile: certificateFile, privateKeyFile: privateKeyFile)
        let certificate = try ServerCertificate(files)
        state = Mutex(State(current: certificate))
    }

    /// The certificate new handshakes get.
    var current: ServerCertificate { state.withLock { $0.current } }

    /// NIOSSL asks this at each handshake (after the client's hello) which certificate to send.
    var handshakeCallback: NIOSSLContextCallback {
        { [self] _, promise in
            let certificate = current
            var choice = NIOSSLContextConfigurationOverride()
            choice.certificateChain = certificate.chain.map { .certificate($0) }
            choice.privateKey = .privateKey(certificate.privateKey)
            promise.succeed(choice)
        }
    }

    /// Reads the files again and serves them if they changed and can be used.
    /// - Returns: whether a new certificate is now served.
    @discardableResult
    package func reload() -> Bool {
        let files: ServerCertificate.Files
        do {
            files = try ServerCertificate.read(certificateFile: certificateFile, privateKeyFile: privateKeyFile)
        } catch {
            return refuse(nil, because: "\(error)")
        }
        let (unchanged, knownRefusal) = state.withLock { ($0.current.files == files, $0.refused == files ? $0.refusal : nil) }
        if unchanged { return false }
        if let knownRefusal { return refuse(files, because: knownRefusal) }
        let certificate: ServerCertificate
        do {
            certificate = try ServerCertificate(files)
        } catch {
            return refuse(files, because: "\(error)")
        }
        state.withLock {
            $0.current = certificate
            $0.refused = nil
            $0.refusal = nil
        }
        logger.notice("server certificate reloaded", metadata: metadata(of: certificate))
        return true
    }

    /// Logs a refusal the second time in a row it is met, and only then: a renewal replaces the
    /// two files one after the other, and the pass that reads one new and one old file should
    /// not raise an alarm when the next pass serves the pair.
    private func refuse(_ files: ServerCertificate.Files?, because reason: String) -> Bool {
        let log = state.withLock { state in
            guard state.refused == files, state.refusal == reason else {
                (state.refused, state.refusal, state.refusalLogged) = (files, reason, false)
                return false
            }
            defer { state.refusalLogged = true }
            return !state.refusalLogged
        }
        if log {
            logger.error(
                "the new server certificate cannot be used; the previous one is still served",
                metadata: ["reason": "\(reason)", "certificateFile": "\(certificateFile)", "privateKeyFile": "\(privateKeyFile)"])
        }
        return false
    }

    private func metadata(of certificate: ServerCertificate) -> Logger.Metadata {
        [
            "serial": "\(certificate.serialNumber)", "subject": "\(certificate.leaf.subject)",
            "notValidAfter": "\(certificate.leaf.notValidAfter)",
        ]
    }

    /// Polls the files every `interval` and reloads at each SIGHUP, until a graceful shutdown.
    package func run() async {
        logger.info("serving HTTPS", metadata: metadata(of: current))
        await reloadUntilShutdown(every: interval, announce: { [logger] in logger.info("SIGHUP: reading the server certificate again") }) {
            [self] in _ = reload()
        }
    }
}

// The service group logs each service by its description.
extension ServerCertificateReloader: CustomStringConvertible {
    package var description: String { "ServerCertificateReloader" }
}
