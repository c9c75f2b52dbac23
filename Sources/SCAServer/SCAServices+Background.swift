import Logging
import SCAEngine
import ServiceLifecycle

/// The work a server does beside answering requests. `serve` runs all of it; a test or an
/// admin command runs what it needs (a test that drives the webhook outbox by hand leaves its
/// periodic delivery out).
package struct BackgroundWork: OptionSet, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// Signed audit checkpoints to `auditCheckpointFile`, when one is configured.
    package static let auditCheckpoints = BackgroundWork(rawValue: 1 << 0)
    /// Messages to users (codes, pushes, alerts).
    package static let messages = BackgroundWork(rawValue: 1 << 1)
    /// The partner webhook outbox, drained every second.
    package static let webhooks = BackgroundWork(rawValue: 1 << 2)
    /// Burnt signatures past their expiry, forgotten every minute.
    package static let signatureSweep = BackgroundWork(rawValue: 1 << 3)
    /// The server certificate, and the client authorities of `tls.clientCAFile`, read again
    /// when their files change or at SIGHUP.
    package static let certificateReload = BackgroundWork(rawValue: 1 << 4)
    /// The token-signing keys read again every 30 seconds, and rotated when
    /// `tokenKeys.rotationPeriod` says so.
    package static let signingKeys = BackgroundWork(rawValue: 1 << 5)
    /// Retention passes every `retention.passInterval` seconds: expired rows purged, the audit
    /// trail archived and cut when `audit.retention` is set.
    package static let retention = BackgroundWork(rawValue: 1 << 6)
    /// The audit trail streamed to `auditStream.url` every second, when one is configured.
    package static let auditStream = BackgroundWork(rawValue: 1 << 7)
    package static let all: BackgroundWork = [
        .auditCheckpoints, .messages, .webhooks, .signatureSweep, .certificateReload, .signingKeys, .retention,
        .auditStream,
    ]
}

extension SCAServices {
    /// The background services of `work`, in the order a service group starts them: it stops
    /// them in reverse, so with the HTTP server put last, the server drains first, then no more
    /// messages are submitted and their drain runs, and the last checkpoint covers the audit
    /// entries of everything before it.
    package func backgroundServices(_ work: BackgroundWork = .all) -> [any Service] {
        var services: [any Service] = []
        if work.contains(.auditCheckpoints), let checkpoints = PeriodicAuditCheckpoints(services: self) {
            services.append(checkpoints)
        }
        if work.contains(.messages) { services.append(MessageDeliveries(dispatcher: engine.messages)) }
        if work.contains(.webhooks) { services.append(webhookDeliveries) }
        if work.contains(.signatureSweep) { services.append(signatureSweep) }
        if work.contains(.certificateReload), let serverCertificate { services.append(serverCertificate) }
        if work.contains(.certificateReload), let clientCertificateAuthorities { services.append(clientCertificateAuthorities) }
        if work.contains(.signingKeys) { services.append(signingKeyRefresh) }
        if work.contains(.retention) { services.append(retentionPasses) }
        if work.contains(.auditStream), let stream = engine.auditStream {
            services.append(
                PeriodicWork(
                    description: "PeriodicAuditStream", interval: .seconds(1), logger: engine.logger,
                    failure: "audit entries not streamed") { try await stream.pass() })
        }
        return services
    }

    /// Runs `body` while the background services of `work` run, then shuts them down
    /// gracefully as `serve` does at SIGTERM (messages drain for at most their drain time),
    /// whether `body` returns or throws. For work that uses the services once: an admin command
    /// whose operation pushes to a phone, a test's server.
    package func withBackgroundServices<Result: Sendable>(
        _ work: BackgroundWork = .all, _ body: () async throws -> Result
    ) async throws -> Result {
        let services = backgroundServices(work)
        guard !services.isEmpty else { return try await body() }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: services, logger: engine.logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let result: Swift.Result<Result, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }
}

extension SCAServices {
    /// ``SCAServices/deliverWebhooks()`` every second.
    var webhookDeliveries: PeriodicWork {
        PeriodicWork(
            description: "PeriodicWebhookDeliveries", interval: .seconds(1), logger: engine.logger,
            failure: "webhook deliveries not sent") { [self] in try await deliverWebhooks() }
    }

    /// The signing keys read again, and rotated when due, every
    /// ``SigningKeySchedule/reloadInterval``.
    var signingKeyRefresh: PeriodicWork {
        PeriodicWork(
            description: "PeriodicSigningKeyRefresh", interval: SigningKeySchedule.reloadInterval, logger: engine.logger,
            failure: "signing keys not read again") { [engine] in try await engine.signingKeys.refresh() }
    }

    /// A retention pass every `retention.passInterval` seconds.
    var retentionPasses: PeriodicWork {
        PeriodicWork(
            description: "PeriodicRetention", interval: .seconds(engine.configuration.retention.passInterval),
            logger: engine.logger, failure: "retention pass not finished") { [engine] in try await engine.retention.pass() }
    }

    /// ``SCAServices/forgetExpiredSignatures()`` every minute.
    var signatureSweep: PeriodicWork {
        PeriodicWork(
            description: "PeriodicSignatureSweep", interval: .seconds(60), logger: engine.logger,
            failure: "expired signatures not swept") { [self] in try await forgetExpiredSignatures() }
    }
}
