import Foundation
import Hummingbird
import Logging
import SCACore
import SCALocalization
import SCAStorage

/// The engine's services, each built once over one open store
/// (``assemble(configuration:store:runtime:messageSender:logger:)``), and their routes
/// (``register(on:authenticateClient:)``). Partner access and the pages are built over it, and
/// `SCAServices` puts the three together.
package struct Engine: EngineService, Sendable {
    /// Configuration, store, sealing box, clock, audit trail and logger, shared by every service
    /// (and read as the engine's own: `engine.store`). Parts built beside the services use its box
    /// (hosted pages seal their cookies) instead of reading the key file again.
    package let context: EngineContext
    /// The Prometheus registry of this server, rendered at `GET /metrics`.
    package let metrics: ServerMetrics
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
    /// Token-signing key rotation (`sca-server keys`, `tokenKeys.rotationPeriod`).
    package let signingKeys: SigningKeyService
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
    /// The operator console's reads and actions, under the admin API's rules.
    package let console: ConsoleService
    /// Recovery sheets, and a new device bound with one after a lost phone.
    package let recovery: RecoveryService
    /// A forgotten password, replaced with other elements; the restriction a weak reset leaves.
    package let passwordResets: PasswordResetService
    /// Security alerts to a user, on every channel they have.
    package let alerts: SecurityAlerts
    /// The audit chain's signed checkpoints, and its check against the last one written.
    package let auditCheckpoints: AuditCheckpoints
    /// The user's own account page and `sca account`: what acts for them, and taking it back.
    package let accountOverview: AccountOverviewService
    /// New e-mail addresses and phone numbers, waiting for the code sent to them.
    package let contactChanges: ContactChangeService
    /// The user's own authenticator app, waiting for its first code.
    package let totpSetup: TOTPSetupService
    /// What no check needs any more purged, and the audit trail archived and cut.
    package let retention: RetentionService
    /// The audit trail sent to the bank's SIEM as it is written; nil without `auditStream.url`.
    package let auditStream: AuditStream?

    /// The services over an open store, in the order they depend on each other.
    /// - Parameter messageSender: overrides the configured sender (tests may capture messages).
    package static func assemble(
        configuration: ServerConfiguration, store: any SCAStore, runtime: ServerRuntime,
        messageSender: (any MessageSender)?, logger: Logger
    ) async throws -> Engine {
        let box = SecretBox(key: try ServerKey.load(configuration: configuration, random: runtime.random))
        let hasher = PasswordHasher(parameters: configuration.passwordHashing, random: runtime.random)
        // One registry per server (no global MetricsSystem), so tests and instances stay apart.
        let metrics = ServerMetrics(now: runtime.now)
        let audit = AuditTrail(store: store, metrics: metrics, runtime: runtime, logger: logger, box: box)
        let context = EngineContext(
            configuration: configuration, store: store, box: box, runtime: runtime, audit: audit, logger: logger,
            catalogue: try Catalogue.bundled())
        let hashing = PasswordHashingPool(
            concurrency: configuration.passwordHashConcurrency, queueLimit: configuration.passwordHashQueueLimit,
            metrics: metrics, tracing: runtime.tracing)

        let outbound = OutboundHTTP(tracing: runtime.tracing)
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
        let decoyHash = try await hashing.run(.hash) { try hasher.hash(decoySecret) }
        let verifier = FactorVerifier(
            context: context, hasher: hasher, hashing: hashing, maxDeviceFailures: configuration.maxDeviceFailures,
            decoyHash: decoyHash)
        let signer = try await TokenSigner.load(
            store: store, box: box, schedule: SigningKeySchedule(configuration: configuration), now: runtime.now)
        let tokens = TokenService(context: context, signer: signer)
        let alerts = SecurityAlerts(context: context, messages: messages)
        let lockout = LockoutService(context: context, policy: configuration.lockout, alerts: alerts)
        // Send and challenge budgets across challenges and instances.
        let limiter = RateLimiter(context: context, limits: configuration.rateLimits)
        let codes = CodeService(context: context, messages: messages, limiter: limiter)
        // Transaction monitoring and exemptions.
        let riskEngine = RiskService(context: context)
        let passkeys = PasskeyService(context: context, tokens: tokens, alerts: alerts)
        let challenges = ChallengeService(
            context: context, verifier: verifier, tokens: tokens, codes: codes, lockout: lockout,
            risk: .standard(configuration), limiter: limiter, riskEngine: riskEngine,
            passkeyProofs: PasskeyProofs(passkeys: passkeys))
        let users = UserService(
            context: context, hasher: hasher, hashing: hashing, issuer: configuration.issuer, alerts: alerts)
        let devices = DeviceService(context: context, alerts: alerts)
        // Decoupled operations, and the webhook events they write for partners.
        let webhooks = WebhookService(
            context: context, outbound: outbound, signer: signer,
            allowPrivateAddresses: configuration.webhookAllowPrivateAddresses)
        let adminAccess = AdminAccess(context: context, tokens: tokens)
        let operations = OperationService(
            context: context, challenges: challenges, messages: messages, webhooks: webhooks,
            neutralPushText: configuration.pushNeutralText)
        let checkpoints = AuditCheckpoints(store: store, runtime: runtime, tokens: tokens)
        let recovery = RecoveryService(context: context, tokens: tokens, verifier: verifier, alerts: alerts)
        let contactChanges = ContactChangeService(context: context, tokens: tokens, users: users, messages: messages, limiter: limiter)
        let totpSetup = TOTPSetupService(context: context, tokens: tokens, users: users, alerts: alerts)
        let beneficiaries = BeneficiaryService(context: context, tokens: tokens)
        let account = AccountService(tokens: tokens, users: users, devices: devices, contactChanges: contactChanges)
        let passwordResets = PasswordResetService(
            context: context, tokens: tokens, recovery: recovery, alerts: alerts, hasher: hasher, hashing: hashing)
        let accountOverview = AccountOverviewService(
            context: context, tokens: tokens, devices: devices, passkeys: passkeys, recovery: recovery, webhooks: webhooks,
            beneficiaries: beneficiaries, challenges: challenges, contactChanges: contactChanges, settings: account, totpSetup: totpSetup)
        return Engine(
            context: context, metrics: metrics, passwordHashing: hashing, outbound: outbound, outbox: outbox, messages: messages, users: users,
            challenges: challenges, tokens: tokens, signingKeys: SigningKeyService(context: context, signer: signer),
            devices: devices,
            account: account, passkeys: passkeys,
            adminKeys: AdminKeyService(context: context),
            adminAccess: adminAccess,
            risk: riskEngine, beneficiaries: beneficiaries,
            webhooks: webhooks, operations: operations,
            deviceRequests: DeviceRequestAuthenticator(context: context),
            signUp: SignUpService(context: context, challenges: challenges, tokens: tokens, users: users, devices: devices),
            profiles: ProfileService(context: context, tokens: tokens),
            console: ConsoleService(
                context: context, access: adminAccess, users: users, devices: devices, passkeys: passkeys, challenges: challenges,
                risk: riskEngine, checkpoints: checkpoints, passwordResets: passwordResets, accounts: accountOverview,
                webhooks: webhooks, metrics: metrics),
            recovery: recovery,
            passwordResets: passwordResets,
            alerts: alerts,
            auditCheckpoints: checkpoints,
            accountOverview: accountOverview,
            contactChanges: contactChanges, totpSetup: totpSetup,
            retention: RetentionService(context: context, checkpoints: checkpoints),
            auditStream: try auditStream(context: context, outbound: outbound))
    }

    /// The stream to the configured sink, nil without one.
    private static func auditStream(context: EngineContext, outbound: OutboundHTTP) throws -> AuditStream? {
        let configuration = context.configuration
        let sink: any AuditSink
        switch configuration.auditStreamTarget {
        case nil:
            return nil
        case .https(let url):
            let runtime = context.runtime
            sink = AuditWebhookSink(
                url: url, secret: configuration.auditStreamSecret ?? "", outbound: outbound, now: { runtime.now() })
        case .syslogTLS(let host, let port):
            sink = try SyslogTLSSink(host: host, port: port, caFile: configuration.auditStreamCAFile)
        }
        return AuditStream(context: context, sink: sink, instance: context.runtime.makeID(prefix: "ins"))
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
        RecoveryRoutes(recovery: recovery, maxBodySize: limit).register(on: routes)
        PasswordResetRoutes(resets: passwordResets, access: adminAccess, maxBodySize: limit).register(on: routes)
        AccountOverviewRoutes(overview: accountOverview, access: adminAccess).register(on: routes)
        AccountSettingsRoutes(contactChanges: contactChanges, totpSetup: totpSetup, maxBodySize: limit).register(on: routes)
        AdminRoutes(
            users: users, devices: devices, access: adminAccess, audit: audit, checkpoints: auditCheckpoints,
            checkpointFile: configuration.auditCheckpointFile, maxBodySize: limit
        ).register(on: routes)
        // Risk engine and exemptions.
        BeneficiaryRoutes(beneficiaries: beneficiaries, maxBodySize: limit).register(on: routes)
        RiskAdminRoutes(risk: risk, access: adminAccess, maxBodySize: limit).register(on: routes)
        // Passkeys.
        PasskeyRoutes(passkeys: passkeys, maxBodySize: limit).register(on: routes)
        PasskeyAdminRoutes(passkeys: passkeys, users: users, access: adminAccess).register(on: routes)
        MetricsRoutes(metrics: metrics, access: adminAccess).register(on: routes)
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
