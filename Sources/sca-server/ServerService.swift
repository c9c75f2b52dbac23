import Foundation
import Hummingbird
import Logging
import SCAEngine
import SCAServer
import ServiceLifecycle

/// What `serve` runs over an open database: the services, the demo users when asked, then the
/// HTTP server and the periodic audit checkpoints until a graceful shutdown.
///
/// It runs in the same group as the database's pool and after it, since making the services
/// reads the store (the signing keys).
struct ServerService: Service {
    let configuration: ServerConfiguration
    let database: ServerDatabase
    /// Where the server's spans go (`tracing.enabled`); `.off` records none.
    let tracing: ServerTracing
    let logger: Logger

    func run() async throws {
        let services = try await SCAServices.make(
            configuration: configuration, store: database.store, runtime: ServerRuntime(tracing: tracing.recorder), logger: logger)
        if configuration.demo {
            printDemo(try await DemoSeeder(users: services.users).seed())
            // The demo partner of the hosted pages: a sign-in URL and a consent command.
            do {
                for line in try await services.registerDemoPartner().lines { printUnbuffered(line) }
            } catch {
                logger.warning("the demo partner could not be registered: \(error)")
            }
        }
        if configuration.adminKey != nil {
            // The bootstrap key is one secret with every scope; say so at each start.
            logger.notice("the bootstrap adminKey holds every admin scope: replace it with scoped keys (sca-server admin-key create)")
        }
        let host = configuration.host
        let scheme = configuration.tls.servesHTTPS ? "https" : "http"
        let app = try services.application { port in
            printUnbuffered("sca-server listening on \(scheme)://\(host):\(port)")
        }
        // Audit checkpoints, messages to users, the webhook outbox and the signature sweep,
        // before the HTTP server: at a graceful shutdown the server drains first, and the last
        // checkpoint covers what everything else wrote. (The group follows the outer group's
        // graceful shutdown.)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: services.backgroundServices() + [app], logger: logger))
        try await group.run()
    }

    private func printDemo(_ users: [DemoSeeder.Credentials]) {
        printUnbuffered("Demo users (codes are written to \(configuration.outboxPath)):")
        let perNumber = configuration.rateLimits.sendsPerDestination.first
        printUnbuffered(
            "  (demo budgets: up to \(perNumber?.count ?? 0) codes per number or address in \((perNumber?.seconds ?? 0) / 60) min, "
                + "so the getting-started walkthroughs can run twice; a server without --demo keeps 3)")
        for user in users {
            var methods = ["password \(user.password)"]
            if let pin = user.pin { methods.append("PIN \(pin)") }
            if let phone = user.phone { methods.append("SMS to \(phone)") }
            if user.emailCodes { methods.append("e-mail codes") }
            let roles = user.roles.isEmpty ? "" : " [\(user.roles.joined(separator: ", "))]"
            printUnbuffered("  \(user.email)\(roles): \(methods.joined(separator: ", "))")
            if let uri = user.totpURI { printUnbuffered("    TOTP: \(uri)") }
        }
    }
}

// The service group logs each service by its description; the default one would reflect every
// stored property, the configuration's secrets and the services' keys included.
extension ServerService: CustomStringConvertible {
    var description: String { "ServerService" }
}
