import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import Logging
import SCACore
import SCAStorage
import SCAStorageSQLite
import SCAEngine
import SCAPartners
import SCAPages

/// The assembled server: configuration, store, services, and the HTTP router over them.
/// Executables and tests build one of these; nothing else wires services together.
package struct SCAServices: Sendable {
    package let configuration: SCAEngine.ServerConfiguration
    package let store: any SCAStore
    package let runtime: ServerRuntime
    package let users: UserService
    package let challenges: ChallengeService
    package let tokens: TokenService
    package let devices: DeviceService
    package let account: AccountService
    /// Passkeys: registration after SCA, listing, removal.
    package let passkeys: PasskeyService
    /// The security events' trail and counters.
    package let audit: AuditTrail
    /// Scoped admin keys (`sca-server admin-key`).
    package let adminKeys: AdminKeyService
    /// Who may use the admin API.
    let adminAccess: AdminAccess
    /// Transaction monitoring, exemptions and fraud rates.
    package let risk: RiskService
    let beneficiaries: BeneficiaryService
    /// The Prometheus registry of this server, rendered at `GET /metrics`.
    package let metrics: ServerMetrics
    /// Where password and PIN hashing runs: bounded threads and queue (``PasswordHashingPool``).
    package let passwordHashing: PasswordHashingPool
    /// The development outbox, when that is the configured sender.
    package let outbox: OutboxMessageSender?
    /// Every message to a user goes through it, delivered in the background.
    package let messages: MessageDispatcher
    /// Partner clients of the hosted pages.
    package let partners: PartnerService
    /// The demo partner application of `serve --demo`, nil otherwise.
    package let demoPartner: DemoPartner?
    let logger: Logger
    /// Seals and opens under the server key, for parts built beside the services (audit
    /// checkpoints open the signing key with it, hosted pages seal their cookies) instead of
    /// reading the key file again.
    let box: SecretBox
    /// Every HTTP request the server makes (webhooks, gateways): no redirects, each connection
    /// to the address it checked.
    package let outbound: OutboundHTTP
    /// Partner webhooks: the outbox of events for partners, and their endpoints.
    package let webhooks: WebhookService
    /// Decoupled operations approved on the user's phone.
    let operations: OperationService
    /// The phone's device-signed requests (`GET /v1/operations/pending`, approve, reject).
    let deviceRequests: DeviceRequestAuthenticator
    /// OAuth 2.0 and OpenID Connect for partner clients.
    let oauth: OAuthService
    /// Partners' consents to single operations.
    let consents: ConsentService
    /// CIBA poll mode over operations.
    let ciba: CIBAService
    /// Sign up or in.
    package let signUp: SignUpService
    /// Names and custom attributes, and `GET /v1/me`.
    package let profiles: ProfileService
    /// The hosted sign-in, sign-up and consent pages, over the services above.
    let pages: HostedPages

    /// - Parameters:
    ///   - store: the database; nil opens SQLite under the data directory. A PostgreSQL store
    ///     (`databaseURL`) comes from ``ServerDatabase`` with its pool running: see
    ///     ``withServices(configuration:runtime:messageSender:logger:_:)``.
    ///   - messageSender: overrides the configured sender (tests may capture messages).
    /// - Throws: `ConfigurationError` for unusable settings, or the store's error.
    package static func make(
        configuration: SCAEngine.ServerConfiguration, store: (any SCAStore)? = nil, runtime: ServerRuntime = ServerRuntime(),
        messageSender: (any MessageSender)? = nil,
        logger: Logger = Logger(label: "sca-server", metadataProvider: .requestInfo)
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
            database = try SQLiteStore(path: configuration.databasePath, synchronous: configuration.sqliteSynchronous)
        }
        return try await assemble(
            configuration: configuration, store: database, runtime: runtime, messageSender: messageSender,
            logger: logger)
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
                logger: logger)
            // Messages (an operation's push) are delivered while the work runs.
            return try await services.withBackgroundServices(.messages) { try await body(services) }
        }
    }

    /// The services over an open store.
    private static func assemble(
        configuration: SCAEngine.ServerConfiguration, store: any SCAStore, runtime: ServerRuntime,
        messageSender: (any MessageSender)?, logger: Logger
    ) async throws -> SCAServices {
        let box = SecretBox(key: try ServerKey.load(configuration: configuration, random: runtime.random))
        let hasher = PasswordHasher(parameters: configuration.passwordHashing, random: runtime.random)
        // One registry per server (no global MetricsSystem), so tests and instances stay apart.
        let metrics = ServerMetrics()
        let audit = AuditTrail(store: store, metrics: metrics, runtime: runtime, logger: logger)
        let hashing = PasswordHashingPool(
            concurrency: configuration.passwordHashConcurrency, queueLimit: configuration.passwordHashQueueLimit,
            metrics: metrics)

        let outbound = OutboundHTTP()
        var outbox: OutboxMessageSender?
        let sender: any MessageSender
        if let messageSender {
            sender = messageSender
        } else if configuration.messageSender == .webhook, let url = configuration.webhookURL.flatMap(URL.init(string:)) {
            sender = WebhookMessageSender(
                url: url, pushURL: configuration.pushGatewayURL.flatMap(URL.init(string:)),
                timeout: configuration.messageGatewayTimeout, outbound: outbound)
        } else {
            let created = OutboxMessageSender(path: configuration.outboxPath)
            outbox = created
            sender = created
        }
        // Background message delivery; the development outbox is written inline.
        let messages = MessageDispatcher(
            sender: sender, inline: sender is OutboxMessageSender, attempts: configuration.messageDeliveryAttempts,
            backoff: .milliseconds(Int64((configuration.messageRetryBackoff * 1000).rounded())),
            limit: configuration.messageQueueLimit,
            concurrency: configuration.messageDeliveryConcurrency, audit: audit, metrics: metrics, logger: logger)

        let decoySecret = Base64URL.encode(runtime.random.bytes(16))
        let decoyHash = try await hashing.run { try hasher.hash(decoySecret) }
        let verifier = FactorVerifier(
            store: store, hasher: hasher, hashing: hashing, box: box, runtime: runtime, maxDeviceFailures: configuration.maxDeviceFailures,
            decoyHash: decoyHash)
        let signer = try await TokenSigner.load(store: store, box: box, now: runtime.now())
        let tokens = TokenService(store: store, signer: signer, configuration: configuration, runtime: runtime, audit: audit)
        let lockout = LockoutService(
            store: store, policy: configuration.lockout, alerts: messages, runtime: runtime, logger: logger, audit: audit)
        // Send and challenge budgets across challenges and instances.
        let limiter = RateLimiter(store: store, box: box, limits: configuration.rateLimits, runtime: runtime, audit: audit)
        let codes = CodeService(
            store: store, box: box, messages: messages, configuration: configuration, runtime: runtime, logger: logger,
            audit: audit, limiter: limiter)
        // Transaction monitoring and exemptions.
        let riskEngine = RiskService(store: store, configuration: configuration, runtime: runtime, audit: audit, logger: logger)
        let passkeys = PasskeyService(
            store: store, box: box, tokens: tokens, configuration: configuration, runtime: runtime, logger: logger, audit: audit)
        let challenges = ChallengeService(
            store: store, verifier: verifier, tokens: tokens, codes: codes, lockout: lockout,
            risk: .standard(configuration), configuration: configuration, runtime: runtime, logger: logger,
            audit: audit, limiter: limiter, riskEngine: riskEngine, passkeyProofs: PasskeyProofs(passkeys: passkeys))
        let users = UserService(
            store: store, hasher: hasher, hashing: hashing, box: box, runtime: runtime, issuer: configuration.issuer,
            audit: audit)
        let devices = DeviceService(
            store: store, box: box, configuration: configuration, runtime: runtime, logger: logger, audit: audit)
        let account = AccountService(tokens: tokens, users: users, devices: devices)
        let adminAccess = AdminAccess(
            store: store, tokens: tokens, configuration: configuration, runtime: runtime, audit: audit, logger: logger)
        let partners = PartnerService(store: store, runtime: runtime, audit: audit, metrics: metrics)

        // Partner access and decoupled operations, over the engine above.
        let webhooks = WebhookService(
            store: store, box: box, runtime: runtime, audit: audit, logger: logger, outbound: outbound,
            allowPrivateAddresses: configuration.webhookAllowPrivateAddresses)
        let operations = OperationService(
            store: store, challenges: challenges, box: box, runtime: runtime, audit: audit, logger: logger,
            messages: messages, webhooks: webhooks, neutralPushText: configuration.pushNeutralText)
        let oauth = OAuthService(
            store: store, partners: partners, tokens: tokens, box: box, configuration: configuration, runtime: runtime,
            audit: audit)
        let consents = ConsentService(
            store: store, tokens: tokens, challenges: challenges, operations: operations, box: box,
            configuration: configuration, runtime: runtime, audit: audit, webhooks: webhooks)
        let signUp = SignUpService(
            challenges: challenges, tokens: tokens, users: users, devices: devices, store: store, configuration: configuration,
            runtime: runtime, audit: audit)
        let renderer = try PageRenderer()
        let pages = HostedPages(
            oauth: oauth, challenges: challenges, consents: consents, operations: operations, signUp: signUp,
            signUpMode: configuration.signUp.mode, renderer: renderer,
            cookies: PageCookies(box: box, secure: configuration.baseURL.lowercased().hasPrefix("https:")),
            runtime: runtime)
        return SCAServices(
            configuration: configuration, store: store, runtime: runtime, users: users, challenges: challenges,
            tokens: tokens, devices: devices, account: account, passkeys: passkeys, audit: audit,
            adminKeys: AdminKeyService(store: store, runtime: runtime, audit: audit), adminAccess: adminAccess,
            risk: riskEngine, beneficiaries: BeneficiaryService(store: store, tokens: tokens, runtime: runtime, audit: audit),
            metrics: metrics, passwordHashing: hashing, outbox: outbox, messages: messages, partners: partners,
            demoPartner: configuration.demo ? DemoPartner(runtime: runtime) : nil,
            logger: logger, box: box, outbound: outbound, webhooks: webhooks, operations: operations,
            deviceRequests: DeviceRequestAuthenticator(store: store, box: box, runtime: runtime, audit: audit),
            oauth: oauth, consents: consents,
            ciba: CIBAService(
                store: store, tokens: tokens, box: box, configuration: configuration, runtime: runtime, audit: audit),
            signUp: signUp, profiles: ProfileService(store: store, tokens: tokens, configuration: configuration, audit: audit),
            pages: pages)
    }

    /// Every route of openapi.yaml behind the problem middleware. A known path asked with another
    /// method answers `405` with `Allow`.
    package func router() -> Router<SCARequestContext> {
        let router = Router(context: SCARequestContext.self)
        router.add(middleware: RequestInfoMiddleware(
            trustedProxyHeader: configuration.trustedProxyHeader.flatMap { HTTPField.Name($0) }))
        // Outside the problem middleware, so it counts the status a problem was turned into.
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: ProblemMiddleware(maxBodySize: configuration.maxBodySize))
        // Behind a proxy the per-address cap counts each forwarded address's requests.
        if configuration.trustedProxyHeader != nil {
            router.add(middleware: RequestAddressLimitMiddleware(limit: configuration.maxConnectionsPerAddress))
        }
        let routes = RouteRecorder(router)
        ChallengeRoutes(challenges: challenges, maxBodySize: configuration.maxBodySize).register(on: routes)
        TokenRoutes(tokens: tokens, maxBodySize: configuration.maxBodySize).register(on: routes)
        DeviceRoutes(devices: devices, account: account, maxBodySize: configuration.maxBodySize).register(on: routes)
        AccountRoutes(account: account, maxBodySize: configuration.maxBodySize).register(on: routes)
        AdminRoutes(
            users: users, devices: devices, access: adminAccess, audit: audit,
            maxBodySize: configuration.maxBodySize
        ).register(on: routes)
        // Risk engine and exemptions.
        BeneficiaryRoutes(beneficiaries: beneficiaries, maxBodySize: configuration.maxBodySize).register(on: routes)
        RiskAdminRoutes(risk: risk, access: adminAccess, maxBodySize: configuration.maxBodySize).register(on: routes)
        // Passkeys.
        PasskeyRoutes(passkeys: passkeys, maxBodySize: configuration.maxBodySize).register(on: routes)
        PasskeyAdminRoutes(passkeys: passkeys, users: users, access: adminAccess).register(on: routes)
        MetadataRoutes(tokens: tokens, store: store).register(on: routes)
        MetricsRoutes(metrics: metrics).register(on: routes)
        // Hosted pages for partners.
        PartnerRoutes(
            partners: partners, oauth: oauth, consents: consents, access: adminAccess, maxBodySize: configuration.maxBodySize
        ).register(on: routes)
        HostedPageRoutes(signIn: pages.signIn, consentPages: pages.consent, maxBodySize: configuration.maxBodySize)
            .register(on: routes)
        // Decoupled operations, asked for by the backend or a partner client.
        OperationRoutes(
            operations: operations, devices: deviceRequests, access: adminAccess,
            authenticateClient: { [partners] in try await partners.admittedClientID($0, secret: $1) },
            maxBodySize: configuration.maxBodySize
        ).register(on: routes)
        CIBARoutes(oauth: oauth, ciba: ciba, operations: operations, maxBodySize: configuration.maxBodySize)
            .register(on: routes)
        // Sign up or in.
        SignUpRoutes(signUp: signUp, maxBodySize: configuration.maxBodySize).register(on: routes)
        ProfileRoutes(profiles: profiles, access: adminAccess, maxBodySize: configuration.maxBodySize).register(on: routes)
        HostedSignUpRoutes(pages: pages.signUp, maxBodySize: configuration.maxBodySize).register(on: routes)
        if let demoPartner {
            DemoRoutes(
                demo: demoPartner, oauth: oauth, consents: consents, renderer: pages.renderer, base: configuration.baseURL
            ).register(on: routes)
        }
        // Partner webhooks.
        PartnerWebhookRoutes(webhooks: webhooks, access: adminAccess, maxBodySize: configuration.maxBodySize)
            .register(on: routes)
        routes.answerOtherMethods()
        return router
    }

    /// The HTTP server on the configured host and port, with the slow-client bounds: a
    /// connection idle (or still sending its headers) for `connectionIdleTimeout` is closed, a
    /// body not complete `requestReadTimeout` after its headers is answered `408`, and
    /// connections beyond `maxConnections` in all, or `maxConnectionsPerAddress` from one
    /// address, are closed when accepted.
    /// - Parameter onServerRunning: called with the bound port (useful with port 0).
    package func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let counter = ConnectionCounter(
            limit: configuration.maxConnections, limitPerAddress: configuration.maxConnectionsPerAddress)
        // Behind a proxy every peer is the proxy: the router caps each forwarded address instead.
        let perAddress = configuration.trustedProxyHeader == nil
        let readTimeout = TimeAmount.seconds(Int64(configuration.requestReadTimeout))
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [
                ConnectionLimitHandler(counter: counter, perAddress: perAddress), RequestReadTimeoutHandler(timeout: readTimeout),
            ],
            idleTimeout: .seconds(Int64(configuration.connectionIdleTimeout)))
        return Application(
            router: router(),
            server: .http1(configuration: http1),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "sca-server"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }
}
