import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import SCACore
import SCAEngine
import SCAPages
import SCAPartners
import SCAStorage
import SCAStorageSQLite

/// The assembled server: the engine's services, partner access over them, the hosted pages,
/// and the HTTP router over all three. Executables and tests build one of these; nothing else
/// wires services together.
///
/// The engine's services read as the server's own (`services.users`, `services.store`).
@dynamicMemberLookup
package struct SCAServices: Sendable {
    /// Configuration, store, and every first-party service (``Engine``).
    package let engine: Engine
    /// Partner clients, OAuth, consents and CIBA, over the engine.
    package let partnerAccess: PartnerAccess
    /// The hosted sign-in, sign-up and consent pages, over both.
    let pages: HostedPages
    /// The server's certificate with `tls.certificateFile`: HTTPS, reloaded when its files change.
    package let serverCertificate: ServerCertificateReloader?
    /// `tls.clientCAFile`: the authorities whose client certificates are accepted, read again
    /// when the file changes.
    package let clientCertificateAuthorities: ClientAuthoritiesReloader?

    package subscript<Member>(dynamicMember member: KeyPath<Engine, Member>) -> Member { engine[keyPath: member] }

    /// - Parameters:
    ///   - store: the database; nil opens SQLite under the data directory. A PostgreSQL store
    ///     (`databaseURL`) comes from ``ServerDatabase`` with its pool running: see
    ///     ``withServices(configuration:runtime:messageSender:logger:_:)``.
    ///   - messageSender: overrides the configured sender (tests may capture messages).
    ///   - servesHTTP: false for work without an HTTP server (an admin command), which then does
    ///     not read the TLS files: they may be the server's alone to read.
    /// - Throws: `ConfigurationError` for unusable settings (a TLS file that cannot be read or a
    ///   key of another certificate included), or the store's error.
    package static func make(
        configuration: SCAEngine.ServerConfiguration, store: (any SCAStore)? = nil, runtime: ServerRuntime = ServerRuntime(),
        messageSender: (any MessageSender)? = nil,
        logger: Logger = Logger(label: "sca-server", metadataProvider: .requestInfo), servesHTTP: Bool = true
    ) async throws -> SCAServices {
        try configuration.validate()
        try ServerDatabase.createDataDirectory(configuration)
        let database: any SCAStore
        if let store {
            database = store
        } else if configuration.databaseURL != nil {
            // Its pool must run while the services are made (they read the signing keys).
            throw ConfigurationError("a PostgreSQL databaseURL needs the store from ServerDatabase.open, with its pool running")
        } else {
            database = try SQLiteStore(
                path: configuration.databasePath, synchronous: configuration.sqliteSynchronous, tracing: runtime.tracing)
        }
        return try await assemble(
            configuration: configuration, store: database, runtime: runtime, messageSender: messageSender,
            logger: logger, servesHTTP: servesHTTP)
    }

    /// Opens the configured database (``ServerDatabase``), makes the services over it and runs
    /// `body` with them while the database's pool runs; closes the pool afterwards, whether
    /// `body` returns or throws. For work that uses the services once: an admin command, a test.
    package static func withServices<Result: Sendable>(
        configuration: SCAEngine.ServerConfiguration, runtime: ServerRuntime = ServerRuntime(),
        messageSender: (any MessageSender)? = nil,
        logger: Logger = Logger(label: "sca-server", metadataProvider: .requestInfo),
        _ body: (SCAServices) async throws -> Result
    ) async throws -> Result {
        let database = try await ServerDatabase.open(configuration: configuration, logger: logger)
        return try await database.withRunning { store in
            let services = try await make(
                configuration: configuration, store: store, runtime: runtime, messageSender: messageSender,
                logger: logger, servesHTTP: false)
            // Messages (an operation's push) are delivered while the work runs.
            return try await services.withBackgroundServices(.messages) { try await body(services) }
        }
    }

    /// The services over an open store: the engine, partner access over it, the pages over both.
    private static func assemble(
        configuration: SCAEngine.ServerConfiguration, store: any SCAStore, runtime: ServerRuntime,
        messageSender: (any MessageSender)?, logger: Logger, servesHTTP: Bool
    ) async throws -> SCAServices {
        let engine = try await Engine.assemble(
            configuration: configuration, store: store, runtime: runtime, messageSender: messageSender, logger: logger)
        let partnerAccess = PartnerAccess(engine: engine)
        var tls = configuration.tls
        if !servesHTTP { tls = TLSSettings() }
        return SCAServices(
            engine: engine, partnerAccess: partnerAccess,
            pages: try HostedPages(engine: engine, partnerAccess: partnerAccess),
            serverCertificate: try tls.certificateFile.flatMap { certificateFile in
                // validate() has checked that both files are set, or neither.
                try tls.privateKeyFile.map {
                    try ServerCertificateReloader(certificateFile: certificateFile, privateKeyFile: $0, logger: logger)
                }
            },
            clientCertificateAuthorities: try tls.clientCAFile.map { try ClientAuthoritiesReloader(file: $0, logger: logger) })
    }

    /// Every route of openapi.yaml behind the problem middleware. A known path asked with another
    /// method answers `405` with `Allow`.
    package func router() -> Router<SCARequestContext> {
        let router = Router(context: SCARequestContext.self)
        // Outermost, so the request's span holds everything the request does.
        if engine.runtime.tracing.isOn {
            router.add(middleware: RequestTracingMiddleware(tracing: engine.runtime.tracing))
        }
        router.add(middleware: RequestInfoMiddleware(
            trustedProxyHeader: engine.configuration.trustedProxyHeader.flatMap { HTTPField.Name($0) },
            clientCertificates: clientCertificateSource))
        // Outside the problem middleware, so it counts the status a problem was turned into.
        router.add(middleware: RequestMetricsMiddleware(metrics: engine.metrics))
        router.add(middleware: ProblemMiddleware(maxBodySize: engine.configuration.maxBodySize, catalogue: engine.catalogue))
        // Behind a proxy the per-address cap counts each forwarded address's requests.
        if engine.configuration.trustedProxyHeader != nil {
            router.add(middleware: RequestAddressLimitMiddleware(limit: engine.configuration.maxConnectionsPerAddress))
        }
        let routes = RouteRecorder(router)
        engine.register(on: routes) { [partners = partnerAccess.partners] in
            try await partners.admittedClientID($0, secret: $1)
        }
        MetadataRoutes(tokens: engine.tokens, store: engine.store).register(on: routes)
        partnerAccess.register(on: routes)
        pages.register(on: routes)
        routes.answerOtherMethods()
        return router
    }

    /// Where requests get their client certificate from: the proxy's header when one is
    /// configured (every connection is then the proxy's), else this server's TLS handshake.
    private var clientCertificateSource: ClientCertificateSource? {
        guard let authorities = clientCertificateAuthorities else { return nil }
        if let header = engine.configuration.tls.clientCertificateHeader.flatMap({ HTTPField.Name($0) }) {
            return .proxyHeader(header, authorities: { authorities.current }, now: engine.runtime.now)
        }
        return serverCertificate == nil ? nil : .handshake
    }

    /// The HTTP server on the configured host and port, with the slow-client bounds: a
    /// connection idle (or still sending its headers) for `connectionIdleTimeout` is closed, a
    /// body not complete `requestReadTimeout` after its headers is answered `408`, and
    /// connections beyond `maxConnections` in all, or `maxConnectionsPerAddress` from one
    /// address, are closed when accepted.
    /// With `tls.certificateFile` it answers HTTPS only (``TLSConfiguration/server(certificates:clientAuthorities:)``).
    /// - Parameter onServerRunning: called with the bound port (useful with port 0).
    /// - Throws: NIOSSL's error when the TLS configuration cannot be made.
    package func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> some ApplicationProtocol {
        let counter = ConnectionCounter(
            limit: engine.configuration.maxConnections, limitPerAddress: engine.configuration.maxConnectionsPerAddress)
        // Behind a proxy every peer is the proxy: the router caps each forwarded address instead.
        let perAddress = engine.configuration.trustedProxyHeader == nil
        let readTimeout = TimeAmount.seconds(Int64(engine.configuration.requestReadTimeout))
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [
                ConnectionLimitHandler(counter: counter, perAddress: perAddress), RequestReadTimeoutHandler(timeout: readTimeout),
            ],
            idleTimeout: .seconds(Int64(engine.configuration.connectionIdleTimeout)))
        var server = HTTPServerBuilder.http1(configuration: http1)
        if engine.configuration.tls.servesHTTPS, serverCertificate == nil {
            throw ConfigurationError("these services were made without their TLS files (servesHTTP: false): they cannot serve HTTPS")
        }
        if let serverCertificate {
            server = try .tls(
                server,
                configuration: Self.tlsChannel(certificates: serverCertificate, clientAuthorities: clientCertificateAuthorities))
        }
        return Application(
            router: router(),
            server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(engine.configuration.host, port: engine.configuration.port), serverName: "sca-server"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? engine.configuration.port) },
            logger: engine.logger)
    }
}
