import Foundation
import Hummingbird
import Logging
import SCACore
import SCAStorage

/// The engine's services, each built once over one open store
/// (``assemble(configuration:store:runtime:messageSender:logger:)``), and their routes
/// (``register(on:authenticateClient:)``). Partner access and the pages are built over it, and
/// `SCAServices` puts the three together.
package struct Engine: Sendable {
    package let configuration: ServerConfiguration
    package let store: any SCAStore
    package let runtime: ServerRuntime
    package let logger: Logger
    /// Seals and opens under the server key, for parts built beside the services (audit
    /// checkpoints open the signing key with it, hosted pages seal their cookies) instead of
    /// reading the key file again.
    package let box: SecretBox
    /// The Prometheus registry of this server, rendered at `GET /metrics`.
    package let metrics: ServerMetrics
    /// The security events' trail and counters.
    package let audit: AuditTrail
    /// Where password and PIN hashing runs: bounded threads and queue (``PasswordHashingPool``).
    package let passwordHashing: PasswordHashingPool
    /// Every HTTP request the server makes (webhooks, gateways): no redirects, each connection
    /// to the address it checked.
    package let outbound: OutboundHTTP
    /// The development outbox, when that is the configured sender.
    package let outbox: OutboxMessageSender?
    /// Every message to a user goes through it, delivered in the background.
    package let messages: MessageDispatcher
    package let users: UserService
    package let challenges: ChallengeService
    package let tokens: TokenService
    package let devices: DeviceService
    package let account: AccountService
    /// Passkeys: registration after SCA, listing, removal.
    package let passkeys: PasskeyService
    /// Scoped admin keys (`sca-server admin-key`).
    package let adminKeys: AdminKeyService
    /// Who may use the admin API.
    package let adminAccess: AdminAccess
    /// Transaction monitoring, exemptions and fraud rates.
    package let risk: RiskService
    let beneficiaries: BeneficiaryService
    /// Partner webhooks: the outbox of events for partners, and their endpoints.
    package let webhooks: WebhookService
    /// Decoupled operations approved on the user's phone.
    package let operations: OperationService
    /// The phone's device-signed requests (`GET /v1/operations/pending`, approve, reject).
    let deviceRequests: DeviceRequestAuthenticator
    /// Sign up or in.
    package let signUp: SignUpService
    /// Names and custom attributes, and `GET /v1/me`.
    package let profiles: ProfileService

    /// The services over an open store, in the order they depend on each other.
    /// - Parameter messageSender: overrides the configured sender (tests may capture messages).
    package static func assemble(
        configuration: ServerConfiguration, store: any SCAStore, runtime: ServerRuntime,
        messageSender: (any MessageSender)?, logger: Logger
    ) async throws -> Engine {
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
        // Decoupled operations, and the webhook events they write for partners.
        let webhooks = WebhookService(
            store: store, box: box, runtime: runtime, audit: audit, logger: logger, outbound: outbound,
            allowPrivateAddresses: configuration.webhookAllowPrivateAddresses)
        let operations = OperationService(
            store: store, challenges: challenges, box: box, runtime: runtime, audit: audit, logger: logger,
            messages: messages, webhooks: webhooks, neutralPushText: configuration.pushNeutralText)
        return Engine(
            configuration: configuration, store: store, runtime: runtime, logger: logger, box: box, metrics: metrics,
            audit: audit, passwordHashing: hashing, outbound: outbound, outbox: outbox, messages: messages, users: users,
            challenges: challenges, tokens: tokens, devices: devices,
            account: AccountService(tokens: tokens, users: users, devices: devices), passkeys: passkeys,
            adminKeys: AdminKeyService(store: store, runtime: runtime, audit: audit),
            adminAccess: AdminAccess(
                store: store, tokens: tokens, configuration: configuration, runtime: runtime, audit: audit, logger: logger),
            risk: riskEngine, beneficiaries: BeneficiaryService(store: store, tokens: tokens, runtime: runtime, audit: audit),
            webhooks: webhooks, operations: operations,
            deviceRequests: DeviceRequestAuthenticator(store: store, box: box, runtime: runtime, audit: audit),
            signUp: SignUpService(
                challenges: challenges, tokens: tokens, users: users, devices: devices, store: store,
                configuration: configuration, runtime: runtime, audit: audit),
            profiles: ProfileService(store: store, tokens: tokens, configuration: configuration, audit: audit))
    }

    /// The engine's routes: challenges and proofs, tokens, devices, the account, admin, risk
    /// and beneficiaries, passkeys, metrics, sign-up, profiles, decoupled operations and partner
    /// webhooks.
    /// - Parameter authenticateClient: checks a partner client's id and secret for
    ///   `POST /v1/operations` (see ``OperationRoutes``).
    package func register<Context: RequestContext>(
        on routes: RouteRecorder<Context>,
        authenticateClient: @escaping @Sendable (_ clientID: String, _ secret: String) async throws -> String
    ) {
        let limit = configuration.maxBodySize
        ChallengeRoutes(challenges: challenges, maxBodySize: limit).register(on: routes)
        TokenRoutes(tokens: tokens, maxBodySize: limit).register(on: routes)
        DeviceRoutes(devices: devices, account: account, maxBodySize: limit).register(on: routes)
        AccountRoutes(account: account, maxBodySize: limit).register(on: routes)
        AdminRoutes(users: users, devices: devices, access: adminAccess, audit: audit, maxBodySize: limit).register(on: routes)
        // Risk engine and exemptions.
        BeneficiaryRoutes(beneficiaries: beneficiaries, maxBodySize: limit).register(on: routes)
        RiskAdminRoutes(risk: risk, access: adminAccess, maxBodySize: limit).register(on: routes)
        // Passkeys.
        PasskeyRoutes(passkeys: passkeys, maxBodySize: limit).register(on: routes)
        PasskeyAdminRoutes(passkeys: passkeys, users: users, access: adminAccess).register(on: routes)
        MetricsRoutes(metrics: metrics).register(on: routes)
        // Decoupled operations, asked for by the backend or a partner client.
        OperationRoutes(
            operations: operations, devices: deviceRequests, access: adminAccess, authenticateClient: authenticateClient,
            maxBodySize: limit
        ).register(on: routes)
        // Sign up or in.
        SignUpRoutes(signUp: signUp, maxBodySize: limit).register(on: routes)
        ProfileRoutes(profiles: profiles, access: adminAccess, maxBodySize: limit).register(on: routes)
        // Partner webhooks.
        PartnerWebhookRoutes(webhooks: webhooks, access: adminAccess, maxBodySize: limit).register(on: routes)
    }
}
