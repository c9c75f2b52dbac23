import Foundation
import SCACore
import SCALocalization
import SCAStorage
import SCAStorageSQLite
import SCAWebAuthn

/// Every setting of `sca-server`, with defaults that need no file, variable or flag:
/// 127.0.0.1:8080, SQLite under `./.sca/`. Filled by `ConfigurationLoader` from
/// defaults < file < `SCA_*` environment < flags. Each key a file, variable or flag may set is
/// a row of `ConfigurationSetting.all`.
package struct ServerConfiguration: Sendable {
    package var host = "127.0.0.1"
    /// `0` picks a free port, printed at start-up.
    package var port = 8080
    package var dataDirectory = ".sca"
    /// Bearer key of the admin API; nil switches the admin API off. Never logged: shown redacted.
    @Secret package var adminKey: String? = nil
    /// Base64url 32-byte key sealing secrets at rest; nil reads or creates `<data-dir>/server.key`.
    /// Required with `databaseURL`: every instance on the database must seal and open with it.
    @Secret package var serverKey: String? = nil
    /// `postgres://user:password@host:port/database?sslmode=…`: keep the data on a PostgreSQL
    /// server shared by several instances instead of SQLite under the data directory. Never
    /// logged: shown without its password.
    @Secret(showing: .urlWithoutPassword) package var databaseURL: String? = nil
    package var demo = false

    package var issuer = "sca-server"
    package var audience = "sca"
    /// The language of pages and messages when nothing about the person names a shipped one
    /// (docs/localisation.md says the order).
    package var defaultLanguage = Language.english

    /// Seconds a challenge lives.
    package var challengeLifetime = 300
    /// Seconds an SMS or e-mail code is valid.
    package var codeLifetime = 300
    /// Seconds before another code may be sent for the same challenge.
    package var codeResendInterval = 30
    /// Codes that may be sent per challenge and channel.
    package var maxCodeSends = 5

    package var accessTokenLifetime = 300
    package var refreshTokenLifetime = 86_400
    /// Seconds between two rotations of the token-signing key made by the server itself
    /// (`tokenKeys.rotationPeriod`); nil: only `sca-server keys rotate` rotates.
    package var tokenKeysRotationPeriod: TimeInterval? = nil
    /// Seconds without use after which a session ends (RTS art. 4(3)(d): at most 5 minutes).
    package var sessionIdleTimeout = 300

    package var lockout = LockoutPolicy()
    package var passwordHashing = PasswordHasher.Parameters.default
    /// Password and PIN hashes computed at once, each on a thread of its own (each holds
    /// 128·r·N bytes while it runs: 32 MiB with the default parameters).
    package var passwordHashConcurrency = ProcessInfo.processInfo.activeProcessorCount
    /// Hashes that may wait for a thread; beyond that a proof is answered `503 server.busy`
    /// with `Retry-After`. A waiting hash costs a few hundred bytes; the limit bounds how long
    /// an accepted request waits (about limit ÷ concurrency × the time of one hash).
    package var passwordHashQueueLimit = 1_024

    /// Devices a user may have that are not removed.
    package var maxDevicesPerUser = 5
    /// Consecutive wrong signatures that block a device.
    package var maxDeviceFailures = 5
    /// Seconds an activation code lives, and wrong tries before it is void.
    package var activationCodeLifetime = 300
    package var activationCodeMaxTries = 5
    /// Seconds a password reset proven with one element keeps payments and changes held
    /// before an operator may lift the hold: the real owner's time to hear of it and object.
    package var passwordResetCoolingOff = 86_400

    /// Payments from this amount (in EUR, decimal string) need all three categories.
    package var highValuePaymentThreshold = "1000.00"
    /// EUR value of one unit of each other currency, for the threshold. A payment in a
    /// currency without a rate is treated as high value (fail safe).
    package var exchangeRates: [String: String] = [:]

    /// Per-operation policy; operations not listed get `OperationPolicy()`.
    package var policies: [OperationKind: OperationPolicy] = [:]

    /// Where one-time codes go; `webhook` needs `webhookURL`.
    package var messageSender = MessageSenderKind.outbox
    /// Shown without a password, which a gateway's URL may carry.
    @Secret(showing: .urlWithoutPassword) package var webhookURL: String? = nil
    /// Your push gateway: with `messageSender` `webhook`, push notifications of
    /// operations are POSTed here as JSON (`channel` `push`, `to` the device id, `operationId`,
    /// `text`); without it none is sent. (The outbox records them in development.)
    @Secret(showing: .urlWithoutPassword) package var pushGatewayURL: String? = nil
    /// Webhook hardening: whether partner webhooks may point at loopback, private,
    /// link-local and other special-purpose addresses. Off, they are refused at registration
    /// and at each delivery (after resolving the name); turn on only for development and tests.
    package var webhookAllowPrivateAddresses = false
    /// Push text: when true a payment's push says only "You have a payment to
    /// approve" instead of naming the amount and payee, which then never reach the push
    /// gateway (a third party); the phone shows them from `GET /v1/operations/pending`.
    package var pushNeutralText = false

    /// A header set by the reverse proxy in front of the server (e.g. `X-Forwarded-For`) whose
    /// last entry is the client address recorded in the audit trail; nil uses the peer address.
    package var trustedProxyHeader: String?
    /// HTTPS served here, its certificate reloaded when its files change, and mutual TLS.
    package var tls = TLSSettings()
    /// OpenTelemetry traces to a collector; off by default.
    package var tracing = TracingSettings()

    /// Largest request body accepted, in bytes.
    package var maxBodySize = 65_536

    // Send and challenge budgets, and what a decoy looks like (OTP pumping, decoys).

    /// Codes sent and challenges opened, per destination, user, client address and server.
    package var rateLimits = RateLimits()
    /// The enrolment an unknown user's decoy challenge pretends to have, filtered by the
    /// operation's policy like a real user's. Choose what most of your users have, so that a
    /// decoy looks like most users.
    package var decoyMethods: [AuthenticationMethod] = [.password, .smsOTP, .emailOTP]
    /// The shape of the phone number a decoy pretends to have: `+`, digits, and `#` for digits
    /// drawn from a keyed hash of the typed address (the same every time). Match your users'
    /// numbers, so a decoy's SMS mask has the same length and prefix as theirs.
    package var decoyPhonePattern = "+336########"
    // Database outage.
    /// Seconds one store operation may take on PostgreSQL, waiting for a pooled connection
    /// included, before the request is answered `503 server.unavailable`; also the connect
    /// timeout of each new connection. Fractions allowed.
    package var databaseTimeout: Double = 5

    // Audit checkpoints.
    /// A file outside the data directory where `serve` writes a signed audit checkpoint at
    /// start, every `auditCheckpointInterval` minutes and at shutdown; nil: none.
    package var auditCheckpointFile: String?
    /// Minutes between two periodic audit checkpoints.
    package var auditCheckpointInterval = 60
    /// What is purged when, and when the audit trail is archived and cut.
    package var retention = RetentionSettings()
    // Audit streaming.
    /// Where audit entries go as they are written: `https://…` (signed JSON lines) or
    /// `syslog+tls://host:port` (RFC 5424 over TLS); nil: nowhere.
    @Secret(showing: .urlWithoutPassword) package var auditStreamURL: String? = nil
    /// The HMAC key of the HTTPS sink's signature.
    @Secret package var auditStreamSecret: String? = nil
    /// PEM certificates the syslog collector's certificate must chain to; nil: the system's.
    package var auditStreamCAFile: String?
    // Slow clients and logging.
    /// Seconds a client has to send a request's body once its headers have arrived; beyond,
    /// the request is answered `408` and the connection closed.
    package var requestReadTimeout = 30
    /// Seconds a connection may stay without a complete request: from its opening, or from the
    /// previous response, until the next request's headers have all arrived (so headers sent
    /// byte by byte are bounded too), and between the parts of a body. Then it is closed.
    package var connectionIdleTimeout = 30
    /// Connections served at once; a connection beyond is closed as soon as it is accepted.
    package var maxConnections = 1_024
    /// Connections served at once from one client address (behind `trustedProxyHeader`:
    /// requests in flight per forwarded address), so one client cannot take every place.
    package var maxConnectionsPerAddress = 64
    /// `trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical`.
    package var logLevel = "info"
    // Roles and permissions.
    /// Role name → the permissions it grants (`roles.support: users:read,users:unblock`).
    /// Access tokens carry the user's roles and these permissions; the permissions that are
    /// admin scopes open the admin API to an operator's step-up token.
    package var roles: [String: [String]] = [:]
    // Risk engine and exemptions.
    /// Transaction monitoring and the RTS exemptions (each off by default).
    package var risk = RiskSettings()
    // Hosted pages.
    /// The address browsers and partners reach this server at, e.g. `https://sca.bank.example`:
    /// the OpenID issuer, the base of consent URLs, and whether the page cookie is `Secure`.
    /// Nil: `http://<host>:<port>`.
    package var publicBaseURL: String?
    /// Seconds a consent may wait for the user (default 15 minutes).
    package var consentLifetime = 900
    // Passkeys. Off while `webauthnRPID` and `webauthnOrigins` are unset.
    /// The relying party id: the registrable domain passkeys are scoped to.
    package var webauthnRPID: String?
    /// The name authenticators show.
    package var webauthnRPName = "swift-sca"
    /// The exact origins pages call WebAuthn from (`https://bank.example`, `http://localhost:8080`).
    package var webauthnOrigins: [String] = []
    package var webauthnAttestation: AttestationConveyance = .none
    /// The category a user-verified passkey proves besides possession: `inherence` (the
    /// authenticator's biometric check) or `knowledge` (deployments that count its PIN).
    package var webauthnUserVerifiedCategory: Category = .inherence
    package var maxPasskeysPerUser = 10
    /// Whether a passkey proof must be user-verified (a discoverable login always must).
    package var webauthnUserVerification: PasskeyUserVerification = .preferred
    // Sign-up or in.
    /// Whether a new address proved by its code becomes a user; off by default.
    package var signUp = SignUpSettings()
    /// Profile fields (`name`, `phone`, `email`) and custom attributes that access tokens carry
    /// as claims of the same name; none by default, so tokens carry no personal data unless asked.
    package var tokenClaims: [String] = []
    // Storage durability.
    /// SQLite's `synchronous` on the writer: `normal` keeps every commit through a crash of the
    /// process, `full` through a power loss too (an fsync per commit).
    package var sqliteSynchronous: SQLiteSynchronous = .normal
    /// Seconds between two background WAL checkpoints. Each syncs the WAL and the database file;
    /// under `normal` it also bounds what a power loss can take (docs/operations.md, Durability).
    package var sqliteCheckpointInterval: Double = 0.05
    // Message delivery in the background: no request waits for a gateway.
    /// Attempts (1 to 10) to hand one message to the gateway before it is given up and audited
    /// `message.delivery_failed`.
    package var messageDeliveryAttempts = 3
    /// Seconds (fractions allowed) before the second attempt; each further wait doubles.
    package var messageRetryBackoff: Double = 2
    /// Messages (1 to 1,000,000) waiting for delivery at most; one more is dropped and audited.
    package var messageQueueLimit = 5000
    /// Messages (1 to 256) handed to the gateway at once.
    package var messageDeliveryConcurrency = 8
    /// Seconds (fractions allowed) one POST to the gateway may take before it counts as failed.
    package var messageGatewayTimeout: Double = 10

    package init() {}

    package func policy(for operation: OperationKind) -> OperationPolicy {
        policies[operation] ?? Self.defaultPolicy(for: operation)
    }

    /// Two categories from every method, but a password reset: it is proven without
    /// knowledge, the very element being replaced.
    static func defaultPolicy(for operation: OperationKind) -> OperationPolicy {
        guard operation == .passwordReset else { return OperationPolicy() }
        return OperationPolicy(methods: AuthenticationMethod.allCases.filter { $0.category != .knowledge })
    }

    package var databasePath: String { (dataDirectory as NSString).appendingPathComponent("sca.sqlite") }
    package var outboxPath: String { (dataDirectory as NSString).appendingPathComponent("outbox.jsonl") }
    /// ``publicBaseURL`` without a trailing slash, or `http://<host>:<port>` (`https` when the
    /// server serves HTTPS itself).
    package var baseURL: String {
        guard let publicBaseURL else { return "\(tls.servesHTTPS ? "https" : "http")://\(host):\(port)" }
        return publicBaseURL.hasSuffix("/") ? String(publicBaseURL.dropLast()) : publicBaseURL
    }
    package var serverKeyPath: String { (dataDirectory as NSString).appendingPathComponent("server.key") }
    /// Where archived audit entries go.
    package var auditArchiveDirectory: String {
        retention.auditArchiveDirectory ?? (dataDirectory as NSString).appendingPathComponent("audit-archive")
    }

    /// Refuses settings that would break the RTS or make no sense.
    /// - Throws: `ConfigurationError` naming the setting.
    package func validate() throws {
        guard (1...5).contains(lockout.maxFailedAttempts) else {
            throw ConfigurationError("maxFailedAttempts must be between 1 and 5 (RTS art. 4(3)(b)), got \(lockout.maxFailedAttempts)")
        }
        guard lockout.maxTemporaryBlocks >= 0, lockout.firstBlockDuration > 0 else {
            throw ConfigurationError("lockout durations and counts must be positive")
        }
        guard (1...300).contains(sessionIdleTimeout) else {
            throw ConfigurationError("sessionIdleTimeout must be between 1 and 300 seconds (RTS art. 4(3)(d))")
        }
        guard (1...65_535).contains(port) || port == 0 else { throw ConfigurationError("port out of range: \(port)") }
        for positive in [challengeLifetime, codeLifetime, accessTokenLifetime, refreshTokenLifetime, maxCodeSends, maxBodySize]
        where positive <= 0 {
            throw ConfigurationError("lifetimes, limits and sizes must be positive")
        }
        for (name, value) in [
            ("maxDevicesPerUser", maxDevicesPerUser), ("activationCodeLifetime", activationCodeLifetime),
            ("passwordResetCoolingOff", passwordResetCoolingOff),
        ] where value <= 0 {
            throw ConfigurationError("\(name) must be positive")
        }
        guard (1...5).contains(maxDeviceFailures), (1...5).contains(activationCodeMaxTries) else {
            throw ConfigurationError("maxDeviceFailures and activationCodeMaxTries must be between 1 and 5")
        }
        guard Decimal(plainText: highValuePaymentThreshold).map({ $0 > 0 }) == true else {
            throw ConfigurationError("highValuePaymentThreshold must be a positive amount in plain digits such as 1000.00, got \(highValuePaymentThreshold)")
        }
        for (currency, rate) in exchangeRates {
            guard Currency(code: currency) != nil, Decimal(plainText: rate).map({ $0 > 0 }) == true else {
                throw ConfigurationError("exchangeRates.\(currency) must be a known currency with a positive rate in plain digits such as 0.92")
            }
        }
        guard passwordHashing.isWithinLimits else {
            throw ConfigurationError("scrypt parameters out of range (logN 1-20, r 1-16, p 1-16, N*r*p at most 2^23)")
        }
        guard passwordHashConcurrency >= 1, passwordHashQueueLimit >= 0 else {
            throw ConfigurationError("passwordHashConcurrency must be at least 1 and passwordHashQueueLimit not negative")
        }
        guard codeResendInterval >= 0 else { throw ConfigurationError("codeResendInterval must not be negative") }
        for (operation, policy) in policies {
            guard (1...3).contains(policy.requiredCategories) else {
                throw ConfigurationError("requiredCategories.\(operation.rawValue) must be 1, 2 or 3")
            }
        }
        let reset = policy(for: .passwordReset)
        guard reset.methods.allSatisfy({ $0.category != .knowledge }), reset.requiredCategories <= 2 else {
            throw ConfigurationError(
                "methods.password_reset takes no password or PIN and requiredCategories.password_reset is 1 or 2: the reset replaces the knowledge element")
        }
        // A payment token must say `psd2.sca`, which one category never earns.
        guard policy(for: .payment).requiredCategories >= 2 else {
            throw ConfigurationError("requiredCategories.payment must be 2 or 3: a payment always needs strong customer authentication")
        }
        if messageSender == .webhook {
            guard let webhookURL, let url = URL(string: webhookURL), url.scheme == "http" || url.scheme == "https" else {
                throw ConfigurationError("messageSender webhook needs webhookURL (http or https)")
            }
        }
        // Decoupled operations.
        if let pushGatewayURL {
            guard let url = URL(string: pushGatewayURL), url.scheme == "http" || url.scheme == "https" else {
                throw ConfigurationError("pushGatewayURL must be an http or https URL")
            }
        }
        if let databaseURL {
            let scheme = databaseURL.prefix(while: { $0 != ":" }).lowercased()
            guard databaseURL.contains("://"), scheme == "postgres" || scheme == "postgresql" else {
                throw ConfigurationError("databaseURL must start with postgres:// or postgresql://")
            }
            // The key file under the data directory is one machine's; instances sharing a
            // database must share the key that seals its TOTP seeds and signing keys.
            guard serverKey != nil else {
                throw ConfigurationError(
                    "with databaseURL (PostgreSQL), serverKey (SCA_SERVER_KEY) must be set, the same for every instance")
            }
        }
        try rateLimits.validate()
        try validateDecoyProfile()
        // Database outage.
        guard databaseTimeout.isFinite, databaseTimeout >= 0.01, databaseTimeout <= 600 else {
            throw ConfigurationError("databaseTimeout must be between 0.01 and 600 seconds, got \(databaseTimeout)")
        }
        // Audit checkpoints.
        if let auditCheckpointFile {
            // Whoever can cut the chain can rewrite a checkpoint next to it: keep it elsewhere.
            let file = URL(fileURLWithPath: auditCheckpointFile).standardizedFileURL.path
            let data = URL(fileURLWithPath: dataDirectory).standardizedFileURL.path
            guard !(file == data || file.hasPrefix(data.hasSuffix("/") ? data : data + "/")) else {
                throw ConfigurationError("auditCheckpointFile must be outside the data directory, got \(auditCheckpointFile)")
            }
        }
        try validateTokenKeysRotationPeriod()
        try validateAuditStream()
        guard (10...86_400).contains(retention.passInterval) else {
            throw ConfigurationError("retention.passInterval must be between 10 and 86400 seconds, got \(retention.passInterval)")
        }
        guard (1...10_080).contains(auditCheckpointInterval) else {
            throw ConfigurationError("auditCheckpointInterval must be between 1 and 10080 minutes, got \(auditCheckpointInterval)")
        }
        if let adminKey, adminKey.count < 16 {
            throw ConfigurationError("adminKey must have at least 16 characters")
        }
        // Slow clients and logging.
        for (name, value) in [
            ("requestReadTimeout", requestReadTimeout), ("connectionIdleTimeout", connectionIdleTimeout),
        ] where !(1...3_600).contains(value) {
            throw ConfigurationError("\(name) must be between 1 and 3600 seconds, got \(value)")
        }
        guard maxConnections >= 1 else { throw ConfigurationError("maxConnections must be at least 1, got \(maxConnections)") }
        guard maxConnectionsPerAddress >= 1 else {
            throw ConfigurationError("maxConnectionsPerAddress must be at least 1, got \(maxConnectionsPerAddress)")
        }
        // Roles and permissions.
        for (role, permissions) in roles {
            guard RolePermissions.isValidRoleName(role) else {
                throw ConfigurationError("roles.\(role): a role name is a lower-case letter, then lower-case letters, digits or _ (up to 64)")
            }
            for permission in permissions where !RolePermissions.isValidPermission(permission) {
                throw ConfigurationError(
                    "roles.\(role): \"\(permission)\" is not a permission (1 to 64 of a-z, 0-9, :, _, -, .)")
            }
        }
        try validatePasskeys()
        try tls.validate(trustedProxyHeader: trustedProxyHeader)
        try tracing.validate()
        try validateMessageDelivery()  // Background message delivery.
        guard sqliteCheckpointInterval.isFinite, sqliteCheckpointInterval >= 0.05, sqliteCheckpointInterval <= 60 else {
            throw ConfigurationError("sqlite.checkpointInterval must be between 0.05 and 60 seconds, got \(sqliteCheckpointInterval)")
        }
        guard Self.logLevels.contains(logLevel) else {
            throw ConfigurationError("logLevel must be one of \(Self.logLevels.joined(separator: ", ")), got \(logLevel)")
        }
        // Risk engine and exemptions.
        try risk.validate()
        // Hosted pages.
        if let publicBaseURL {
            guard let url = URL(string: publicBaseURL), url.scheme == "https" || url.scheme == "http", url.host != nil,
                url.query == nil, url.fragment == nil
            else {
                throw ConfigurationError("publicBaseURL must be an http or https URL without query, got \(publicBaseURL)")
            }
        }
        guard (60...86_400).contains(consentLifetime) else {
            throw ConfigurationError("consentLifetime must be between 60 and 86400 seconds, got \(consentLifetime)")
        }
        // Sign-up or in.
        try signUp.validate()
        if signUp.mode.allowsEmail, !policy(for: .login).methods.contains(.emailOTP) {
            throw ConfigurationError("signUp email needs email_otp among methods.login: a sign-up is proven by its e-mail code")
        }
        // Sign-up by phone.
        if signUp.mode.allowsPhone, !policy(for: .login).methods.contains(.smsOTP) {
            throw ConfigurationError("signUp phone needs sms_otp among methods.login: a sign-up is proven by its SMS code")
        }
        for claim in tokenClaims {
            guard !UserAttributes.reservedClaimNames.contains(claim) else {
                throw ConfigurationError("tokenClaims: \"\(claim)\" is a registered JWT claim or one a token already carries; name another attribute")
            }
            guard UserAttributes.isValidKey(claim) else {
                throw ConfigurationError("tokenClaims: \"\(claim.prefix(40))\" is not an attribute name ([a-z][a-z0-9_]{0,31})")
            }
        }
        guard Set(tokenClaims).count == tokenClaims.count, tokenClaims.count <= UserAttributes.maxKeys + 3 else {
            throw ConfigurationError("tokenClaims: each name once, at most \(UserAttributes.maxKeys + 3)")
        }
    }
}

extension ServerConfiguration {
    /// A decoy has no device, so it cannot pretend to have device methods; its number must be
    /// one a user could have (E.164: at most 15 digits).
    func validateDecoyProfile() throws {
        guard !decoyMethods.isEmpty, Set(decoyMethods).count == decoyMethods.count,
            decoyMethods.allSatisfy({ !$0.isDeviceSignature && $0.isProvable && $0 != .passkey })
        else {
            throw ConfigurationError("decoyMethods must list methods once each, without device_key, biometric_key or passkey")
        }
        let body = decoyPhonePattern.dropFirst()
        guard decoyPhonePattern.first == "+", (8...16).contains(decoyPhonePattern.count),
            body.allSatisfy({ $0 == "#" || ($0.isASCII && $0.isNumber) }), body.filter({ $0 == "#" }).count >= 4
        else {
            throw ConfigurationError("decoyPhonePattern must be + and 7 to 15 digits or #, at least 4 of them #, got \(decoyPhonePattern)")
        }
    }
    /// The values of `logLevel`, most verbose first (swift-log's levels).
    package static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
}

/// A setting that cannot be used, with the reason.
package struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    package var description: String
    package init(_ description: String) { self.description = description }
}

extension ServerConfiguration {
    /// The relying party, when passkeys are configured (both `webauthn.rpId` and `webauthn.origins`).
    package var relyingParty: RelyingParty? {
        guard let webauthnRPID, !webauthnOrigins.isEmpty else { return nil }
        return RelyingParty(
            id: webauthnRPID, name: webauthnRPName, origins: Set(webauthnOrigins), attestation: webauthnAttestation)
    }

    /// Passkeys need both an RP id and origins, or neither; an origin is a scheme and a host
    /// (and port), nothing more, and the second category is knowledge or inherence.
    func validatePasskeys() throws {
        guard (webauthnRPID == nil) == webauthnOrigins.isEmpty else {
            throw ConfigurationError("webauthn.rpId and webauthn.origins must be set together (passkeys), or neither")
        }
        for origin in webauthnOrigins {
            guard let url = URL(string: origin), url.scheme == "https" || url.scheme == "http", url.host != nil,
                url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
            else {
                throw ConfigurationError("webauthn.origins: \(origin) is not an origin (scheme://host[:port])")
            }
        }
        guard webauthnUserVerifiedCategory != .possession else {
            throw ConfigurationError("webauthn.userVerifiedCategory must be inherence or knowledge")
        }
        guard (1...100).contains(maxPasskeysPerUser) else {
            throw ConfigurationError("webauthn.maxPasskeysPerUser must be between 1 and 100, got \(maxPasskeysPerUser)")
        }
    }
}
