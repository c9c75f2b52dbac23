import Foundation
import SCACore
import SCALocalization
import SCAStorageSQLite
import SCAWebAuthn

extension ConfigurationSetting {
    /// Every setting of `sca-server`, in the order of the reference. Defaults come from
    /// `ServerConfiguration()`; ranges and settings that depend on each other are checked by
    /// `ServerConfiguration.validate()`, which also guards configurations built in code.
    package static let all: [ConfigurationSetting] = [
        .text("host", \.host, flag: "--host", "address to listen on"),
        .integer("port", \.port, flag: "--port", "port to listen on; `0` picks a free one and prints it"),
        .text("dataDir", \.dataDirectory, flag: "--data-dir", "directory of the SQLite database, the server key and the outbox"),
        .optionalText(
            "databaseURL", \.databaseURL, flag: "--database", absent: "none (SQLite under `dataDir`)",
            "`postgres://…`: a PostgreSQL database shared by several instances (needs `serverKey`); never logged"),
        .optionalText("adminKey", \.adminKey, flag: "--admin-key", absent: "none (scoped keys and operators only)", "bootstrap bearer key of `/admin/v1` with every scope, at least 16 characters; replace it with scoped keys (`sca-server admin-key create`); never logged"),
        .optionalText(
            "serverKey", \.serverKey, absent: "`<dataDir>/server.key`, created on first start",
            "32 bytes base64url sealing TOTP seeds and signing keys; the same for every instance on a database"),
        .value("demo", \.demo, flag: "--demo", parse: ConfigurationParser.boolean, show: { "`\($0)`" }, "seed demo users and print their credentials"),
        .text("issuer", \.issuer, "token `iss`"),
        .text("audience", \.audience, "token `aud`"),
        .value(
            "defaultLanguage", \.defaultLanguage, parse: ConfigurationParser.choice, show: { "`\($0.rawValue)`" },
            "`en`, `fr`, `de`, `es`, `it` or `nl`: pages and messages when neither the request nor the account names a shipped language"),
        .family(
            "requiredCategories", "operation", members: OperationKind.challengeable.map(\.rawValue), defaultText: "`2`",
            "distinct categories (1 to 3) the operation needs"
        ) { value, member, key, configuration in
            try configuration.updatePolicy(member) { $0.requiredCategories = try ConfigurationParser.integer(value, key: key) }
        },
        .family(
            "verdict", "operation", members: OperationKind.challengeable.map(\.rawValue), defaultText: "`deferred`",
            "`deferred` or `immediate`: whether a wrong factor is told at once or only once all are given"
        ) { value, member, key, configuration in
            try configuration.updatePolicy(member) { $0.verdict = try ConfigurationParser.choice(value, key: key) }
        },
        .family(
            "methods", "operation", members: OperationKind.challengeable.map(\.rawValue), defaultText: "all",
            "comma-separated method ids the operation accepts"
        ) { value, member, key, configuration in
            try configuration.updatePolicy(member) { $0.methods = try ConfigurationParser.methods(value, key: key) }
        },
        .value(
            "maxFailedAttempts", \.lockout.maxFailedAttempts, parse: ConfigurationParser.integer, show: { "`\($0)`" },
            "consecutive failures (1 to 5) that block the user; a higher value is refused at start-up"),
        .value(
            "firstBlockSeconds", \.lockout.firstBlockDuration, parse: { TimeInterval(try ConfigurationParser.integer($0, key: $1)) },
            show: { "`\(Int($0))`" }, "seconds of the first temporary block; each further one doubles"),
        .value(
            "maxTemporaryBlocks", \.lockout.maxTemporaryBlocks, parse: ConfigurationParser.integer, show: { "`\($0)`" },
            "temporary blocks before the next one is permanent"),
        .integer("challengeLifetime", \.challengeLifetime, "seconds a challenge lives"),
        .integer("codeLifetime", \.codeLifetime, "seconds an SMS or e-mail code is valid"),
        .integer("codeResendInterval", \.codeResendInterval, "seconds before another code may be sent for the same challenge"),
        .integer("maxCodeSends", \.maxCodeSends, "codes sent per challenge and channel"),
        .integer("accessTokenLifetime", \.accessTokenLifetime, "seconds an access token is valid"),
        .integer("refreshTokenLifetime", \.refreshTokenLifetime, "seconds a refresh token is valid"),
        .value(
            "tokenKeys.rotationPeriod", \.tokenKeysRotationPeriod, parse: ServerConfiguration.rotationPeriod,
            show: { $0.map { "`\(ServerConfiguration.rotationPeriodText($0))`" } ?? "`off`" },
            "`off`, or days (`90d`) or hours (`36h`), 1 to 3650 days, between the server's own rotations of the token-signing key; `sca-server keys rotate` rotates at any time (docs/operations.md, Signing-key rotation)"),
        .integer("sessionIdleTimeout", \.sessionIdleTimeout, "seconds without use that end a session (1 to 300)"),
        .value("scryptLogN", \.passwordHashing.logN, parse: ConfigurationParser.integer, show: { "`\($0)`" }, "scrypt cost of password and PIN hashes (log2 N)"),
        .value("scryptR", \.passwordHashing.r, parse: ConfigurationParser.integer, show: { "`\($0)`" }, "scrypt block size"),
        .value("scryptP", \.passwordHashing.p, parse: ConfigurationParser.integer, show: { "`\($0)`" }, "scrypt parallelism"),
        .integer(
            "passwordHashConcurrency", \.passwordHashConcurrency, defaultText: "cores",
            "scrypt hashes computed at once, each on a dedicated thread"),
        .integer(
            "passwordHashQueueLimit", \.passwordHashQueueLimit,
            "hashes that may wait for a thread; beyond that `503 server.busy` with `Retry-After`"),
        .value(
            "messageSender", \.messageSender, parse: ConfigurationParser.choice, show: { "`\($0.rawValue)`" },
            "`outbox` (JSON lines under `dataDir`) or `webhook` (POST of each message as JSON to `webhookURL`)"),
        .optionalText("webhookURL", \.webhookURL, absent: "none", "your SMS / mail gateway, `http` or `https`, for `messageSender` `webhook`"),
        .optionalText(
            "pushGatewayURL", \.pushGatewayURL, absent: "none",
            "your push gateway, `http` or `https`: with `messageSender` `webhook`, operations' push notifications are POSTed there"),
        // Background message delivery.
        .integer(
            "messageDeliveryAttempts", \.messageDeliveryAttempts,
            "attempts (1 to 10) to hand a message to the gateway, in the background, before it is given up (audited `message.delivery_failed`)"),
        .value(
            "messageRetryBackoff", \.messageRetryBackoff, parse: ConfigurationParser.seconds,
            show: { "`\($0 == $0.rounded() ? String(Int($0)) : String($0))`" },
            "seconds (fractions allowed, 0 to 600) before a failed message is tried again; each further wait doubles"),
        .integer(
            "messageQueueLimit", \.messageQueueLimit,
            "messages (1 to 1000000) waiting for the gateway; one more is dropped (audited `message.delivery_failed`), the answer unchanged"),
        .integer("messageDeliveryConcurrency", \.messageDeliveryConcurrency, "messages (1 to 256) handed to the gateway at once"),
        .value(
            "messageGatewayTimeout", \.messageGatewayTimeout, parse: ConfigurationParser.seconds,
            show: { "`\($0 == $0.rounded() ? String(Int($0)) : String($0))`" },
            "seconds (fractions allowed, 0.1 to 600) one POST to the gateway may take before it counts as a failed attempt"),
        .value(
            "webhookAllowPrivateAddresses", \.webhookAllowPrivateAddresses, parse: ConfigurationParser.boolean,
            show: { "`\($0)`" },
            "let partner webhooks point at loopback, private, link-local and other special-purpose addresses (development and tests only)"),
        .value(
            "pushNeutralText", \.pushNeutralText, parse: ConfigurationParser.boolean, show: { "`\($0)`" },
            "a payment's push says only \"You have a payment to approve\", not the amount and payee (they stay off the push gateway)"),
        .optionalText(
            "trustedProxyHeader", \.trustedProxyHeader, absent: "none (the peer address)",
            "header set by your reverse proxy (`X-Forwarded-For`) whose last entry is the client address"),
        // HTTPS and mutual TLS (docs/tls.md).
        .optionalText(
            "tls.certificateFile", \.tls.certificateFile, absent: "none (plain HTTP)",
            "PEM certificate chain, the server's first: with `tls.privateKeyFile` the server answers HTTPS only (TLS 1.2 and 1.3) and reloads both files when they change or at SIGHUP"),
        .optionalText("tls.privateKeyFile", \.tls.privateKeyFile, absent: "none", "PEM private key of the chain's first certificate"),
        .optionalText(
            "tls.clientCAFile", \.tls.clientCAFile, absent: "none (no client certificates)",
            "PEM bundle of the authorities whose client certificates are accepted (mutual TLS); a presented certificate that does not verify ends the handshake"),
        .optionalText(
            "tls.clientCertificateHeader", \.tls.clientCertificateHeader, absent: "none",
            "behind a proxy that terminates TLS: the header carrying the client certificate as URL-encoded PEM (nginx's `$ssl_client_escaped_cert`); believed only with `trustedProxyHeader`, verified against `tls.clientCAFile`"),
        .value(
            "tls.adminRequiresClientCertificate", \.tls.adminRequiresClientCertificate, parse: ConfigurationParser.boolean,
            show: { "`\($0)`" },
            "every `/admin/v1` request also needs a verified client certificate (`403 auth.client_certificate_required` without one)"),
        // OpenTelemetry traces (docs/operations.md, Traces).
        .value(
            "tracing.enabled", \.tracing.enabled, parse: ConfigurationParser.boolean, show: { "`\($0)`" },
            "record a span per request, with a child per store transaction, outbound call and password hash, and send them to `tracing.endpoint`; ids and outcomes only, never a credential, code, token or address"),
        .text("tracing.endpoint", \.tracing.endpoint, "the collector's OTLP/HTTP traces URL, `http` or `https`, used as it is"),
        .value(
            "tracing.encoding", \.tracing.encoding, parse: ConfigurationParser.choice, show: { "`\($0.rawValue)`" },
            "`protobuf` or `json`: how spans are encoded to the collector"),
        .text("tracing.serviceName", \.tracing.serviceName, "the `service.name` of every span"),
        .value(
            "tracing.sampleRatio", \.tracing.sampleRatio, parse: ConfigurationParser.ratio,
            show: { "`\($0 == $0.rounded() ? String(Int($0)) : String($0))`" },
            "0 to 1: the fraction of new traces recorded; a request whose `traceparent` names a parent follows the parent's choice"),
        .integer("maxBodySize", \.maxBodySize, "largest request body accepted, in bytes"),
        .integer("maxDevicesPerUser", \.maxDevicesPerUser, "devices a user may have that are not removed"),
        .integer("maxDeviceFailures", \.maxDeviceFailures, "consecutive wrong signatures (1 to 5) that block a device"),
        .integer("activationCodeLifetime", \.activationCodeLifetime, "seconds an activation code lives"),
        .integer("activationCodeMaxTries", \.activationCodeMaxTries, "mistyped tries (1 to 5) before an activation code is void"),
        .integer(
            "passwordResetCoolingOff", \.passwordResetCoolingOff,
            "seconds a password reset proven with one element holds payments and changes before an operator may lift the hold"),
        .text("highValuePaymentThreshold", \.highValuePaymentThreshold, "EUR amount, plain digits such as `1000.00`, from which a payment needs all three categories"),
        .family(
            "exchangeRates", "CUR", members: Currency.all.map(\.code).filter { $0 != "EUR" }, anyCase: true, defaultText: "none",
            "EUR per unit of the currency `<CUR>`, plain digits such as `0.92`; a payment in a currency without a rate is high value"
        ) { value, member, _, configuration in
            configuration.exchangeRates[member] = value
        },
        .rateWindows("sendLimitsPerDestination", \.rateLimits.sendsPerDestination, "codes sent to one phone number or address (docs/operations.md, budgets)"),
        .rateWindows("sendLimitsPerUser", \.rateLimits.sendsPerUser, "codes sent to one user, both channels"),
        .rateWindows("sendLimitsPerClient", \.rateLimits.sendsPerClient, "codes asked for from one client address"),
        .rateWindows("sendLimitsGlobal", \.rateLimits.sendsGlobal, "codes sent by the whole server"),
        .rateWindows("challengeLimitsPerClient", \.rateLimits.challengesPerClient, "challenges opened from one client address"),
        .rateWindows(
            "operationLimitsPerCaller", \.rateLimits.operationsPerCaller,
            "operations created by one backend (partner client or admin key); their challenges skip `challengeLimitsPerClient`"),
        .value(
            "decoyMethods", \.decoyMethods, parse: ConfigurationParser.methods,
            show: { "`\($0.map(\.rawValue).joined(separator: ","))`" }, "the methods an unknown user's decoy challenge pretends to have (docs/operations.md)"),
        .value(
            "decoyPhonePattern", \.decoyPhonePattern, parse: { value, _ in value.trimmingCharacters(in: .whitespaces) },
            show: { "`\($0)`" }, "the phone number a decoy pretends to have; `#` are digits drawn from the typed address"),
        .value(
            "databaseTimeout", \.databaseTimeout, parse: ConfigurationParser.seconds,
            show: { "`\($0 == $0.rounded() ? String(Int($0)) : String($0))`" },
            "seconds (fractions allowed) one PostgreSQL operation may take, waiting for a connection included; beyond that `503 server.unavailable`"),
        .optionalText(
            "auditCheckpointFile", \.auditCheckpointFile, absent: "none",
            "file (outside `dataDir`) where `serve` writes a signed audit checkpoint at start, periodically and at shutdown"),
        .integer("auditCheckpointInterval", \.auditCheckpointInterval, "minutes between two periodic audit checkpoints"),
        // Retention (docs/operations.md, Retention).
        .value(
            "retention.challenges", \.retention.challenges, parse: RetentionSettings.age, show: RetentionSettings.text,
            "age after its expiry (`90d`, `36h`; at least 1d) when a challenge and its codes are deleted, unless a consent, operation or session still names it"),
        .value(
            "retention.sessions", \.retention.sessions, parse: RetentionSettings.age, show: RetentionSettings.text,
            "age after its end or last use when a session and its expired refresh tokens are deleted"),
        .value(
            "retention.webhookDeliveries", \.retention.webhookDeliveries, parse: RetentionSettings.age,
            show: RetentionSettings.text, "age after delivery or giving up when a partner webhook delivery is deleted"),
        .value(
            "retention.activationCodes", \.retention.activationCodes, parse: RetentionSettings.age,
            show: RetentionSettings.text, "age after use or expiry when a device activation code is deleted"),
        .integer(
            "retention.passInterval", \.retention.passInterval,
            "seconds (10 to 86400) between two retention passes; rate events, spent token marks and idle unknown-address counters go at each pass once past their expiry"),
        .value(
            "audit.retention", \.retention.audit, parse: RetentionSettings.auditAge, show: RetentionSettings.text,
            "`off`, or the age (at least 30d) past which audit entries are archived to a file and cut from the database with a signed checkpoint at the cut"),
        .optionalText(
            "auditStream.url", \.auditStreamURL, absent: "none (no stream)",
            "where audit entries go as they are written, at least once and in order: `https://…` (JSON lines signed with `auditStream.secret`, through the outbound rules) or `syslog+tls://host[:6514]` (RFC 5424 over TLS)"),
        .optionalText(
            "auditStream.secret", \.auditStreamSecret, absent: "none",
            "HMAC-SHA256 key (at least 32 characters) of the https stream's `SCA-Webhook-Signature`; never logged"),
        .optionalText(
            "auditStream.caFile", \.auditStreamCAFile, absent: "the system's roots",
            "PEM certificates the syslog collector's certificate must chain to"),
        .optionalText(
            "audit.archiveDirectory", \.retention.auditArchiveDirectory, absent: "`<dataDir>/audit-archive`",
            "where archived audit entries are written, one JSON-lines file per cut with its signed checkpoint beside it"),
        .integer(
            "requestReadTimeout", \.requestReadTimeout,
            "seconds (1 to 3600) a request's body may take after its headers; then `408 request.timeout` and the connection is closed"),
        .integer(
            "connectionIdleTimeout", \.connectionIdleTimeout,
            "seconds (1 to 3600) a connection may wait for a complete request head or between body parts; then it is closed"),
        .integer("maxConnections", \.maxConnections, "connections served at once; one beyond is closed when accepted"),
        .integer(
            "maxConnectionsPerAddress", \.maxConnectionsPerAddress,
            "connections served at once from one client address, one beyond is closed when accepted; behind `trustedProxyHeader`, requests in flight per forwarded address, one beyond is answered `429`"),
        .value(
            "logLevel", \.logLevel, flag: "--log-level", parse: { value, _ in value.trimmingCharacters(in: .whitespaces).lowercased() },
            show: { "`\($0)`" }, "`trace`, `debug`, `info`, `notice`, `warning`, `error` or `critical`"),
        // Roles and permissions.
        .openFamily(
            "roles", "role", accepts: RolePermissions.isValidRoleName, defaultText: "none",
            "comma-separated permissions the role `<role>` (a-z, 0-9, `_`) grants, e.g. `users:read,users:unblock`; tokens carry the user's roles and these permissions, and the admin scopes among them open the admin API to an operator (docs/operations.md)"
        ) { value, member, key, configuration in
            let permissions = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            for permission in permissions where !RolePermissions.isValidPermission(permission) {
                throw ConfigurationError("\(key): \"\(permission)\" is not a permission (1 to 64 of a-z, 0-9, :, _, -, .)")
            }
            configuration.roles[member] = Array(Set(permissions)).sorted()
        },
        // Risk engine and exemptions; docs/compliance.md maps each to its RTS article.
        .value(
            "exemptLowValue", \.risk.exemptLowValue, parse: ConfigurationParser.boolean, show: { "`\($0)`" },
            "RTS art. 16: low-value payments without SCA, within the limit below (needs a signed-in session)"),
        .text("lowValueMaxAmount", \.risk.lowValueMaxAmount, "EUR, at most `30.00`: the largest low-value payment"),
        .value(
            "lowValueLimit", \.risk.lowValueLimit, parse: ConfigurationParser.choice, show: { "`\($0.rawValue)`" },
            "`count` (art. 16(c)) or `cumulative` (art. 16(b)): which limit since the last SCA applies"),
        .text("lowValueMaxCumulative", \.risk.lowValueMaxCumulative, "EUR, at most `100.00`: low-value total since the last SCA, this payment included"),
        .integer("lowValueMaxCount", \.risk.lowValueMaxCount, "1 to 5: payments without SCA since the last SCA, this one included"),
        .value(
            "exemptTrustedBeneficiaries", \.risk.exemptTrustedBeneficiaries, parse: ConfigurationParser.boolean,
            show: { "`\($0)`" }, "RTS art. 13: payments to a payee the user trusted (with SCA, `beneficiary_add`)"),
        .value(
            "exemptRecurring", \.risk.exemptRecurring, parse: ConfigurationParser.boolean, show: { "`\($0)`" },
            "RTS art. 14: later payments of a series with the amount and payee of its first, authenticated, one"),
        .value(
            "exemptTRA", \.risk.exemptTRA, parse: ConfigurationParser.boolean, show: { "`\($0)`" },
            "RTS art. 18: transaction risk analysis within the band the fraud rate allows"),
        .value(
            "exemptAccountInfo", \.risk.exemptAccountInfo, parse: ConfigurationParser.boolean, show: { "`\($0)`" },
            "RTS art. 10: account information within `accountInfoExemptionDays` of an SCA for it"),
        .integer("accountInfoExemptionDays", \.risk.accountInfoExemptionDays, "1 to 180: days an SCA for account information lasts"),
        .value(
            "riskDenyList", \.risk.denyList, parse: RiskSettings.list,
            show: { $0.isEmpty ? "none" : "`\($0.joined(separator: ","))`" },
            "comma-separated IBANs and device ids whose operations are refused (`403 risk.refused`)"),
        .integer("velocityMaxPerHour", \.risk.velocityMaxPerHour, "payments in an hour beyond which `velocity_count` is raised"),
        .text("velocityMaxAmountPerDay", \.risk.velocityMaxAmountPerDay, "EUR paid in 24 hours beyond which `velocity_amount` is raised"),
        .integer("unusualAmountFactor", \.risk.unusualAmountFactor, "`unusual_amount` beyond this many times the user's largest payment of 90 days"),
        .integer("newDeviceHours", \.risk.newDeviceHours, "hours after binding during which a device raises `new_device`"),
        .integer(
            "notMeSignalDays", \.risk.notMeSignalDays,
            "0 to 365: days after a user rejects an operation as `not_me` during which `reported_not_me` is raised (0: never)"),
        // Hosted pages.
        .optionalText(
            "publicBaseURL", \.publicBaseURL, absent: "`http://<host>:<port>` (`https` with `tls.certificateFile`)",
            "where browsers and partners reach the server: OpenID issuer, base of consent URLs; `https` makes the page cookie `Secure`"),
        .integer("consentLifetime", \.consentLifetime, "seconds (60 to 86400) a consent waits for the user before it is `Expired`"),
        // Passkeys.
        .optionalText(
            "webauthn.rpId", \.webauthnRPID, absent: "none (passkeys off)",
            "WebAuthn relying party id: the domain passkeys are scoped to (`bank.example`; `localhost` for development)"),
        .text("webauthn.rpName", \.webauthnRPName, "the relying party name authenticators show"),
        .value(
            "webauthn.origins", \.webauthnOrigins,
            parse: { value, _ in value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } },
            show: { $0.isEmpty ? "none (passkeys off)" : "`\($0.joined(separator: ","))`" },
            "comma-separated exact origins pages call WebAuthn from (`https://bank.example`, `http://localhost:8080`)"),
        .value(
            "webauthn.attestation", \.webauthnAttestation, parse: ConfigurationParser.choice, show: { "`\($0.rawValue)`" },
            "`none`, `indirect` or `direct`: the attestation asked for and the least accepted (no metadata service)"),
        .value(
            "webauthn.userVerifiedCategory", \.webauthnUserVerifiedCategory, parse: ConfigurationParser.choice,
            show: { "`\($0.rawValue)`" },
            "`inherence` or `knowledge`: what a user-verified passkey proves besides possession"),
        .integer("webauthn.maxPasskeysPerUser", \.maxPasskeysPerUser, "passkeys a user may register (1 to 100)"),
        .value(
            "webauthn.userVerification", \.webauthnUserVerification, parse: ConfigurationParser.choice, show: { "`\($0.rawValue)`" },
            "`preferred` or `required`: whether a passkey proof without user verification counts (as possession only) or is refused"),
        // Sign-up or in.
        .value(
            "signUp", \.signUp.mode, parse: ConfigurationParser.choice, show: { "`\($0.rawValue)`" },
            "`off`, `email`, `phone` or `email,phone`: whether a new e-mail address or E.164 phone number proved by its code becomes a user (`POST /v1/signup-or-in`)"),
        .value(
            "signUpEmailDomains", \.signUp.emailDomains,
            parse: { value, _ in
                value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
            },
            show: { $0.isEmpty ? "any" : "`\($0.joined(separator: ","))`" },
            "comma-separated e-mail domains whose addresses may sign up"),
        .value(
            "tokenClaims", \.tokenClaims,
            parse: { value, _ in value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } },
            show: { $0.isEmpty ? "none" : "`\($0.joined(separator: ","))`" },
            "comma-separated profile fields (`name`, `phone`, `email`) and custom attributes access tokens carry as claims"),
        // Storage durability.
        .value(
            "sqlite.synchronous", \.sqliteSynchronous, parse: ConfigurationParser.choice, show: { "`\($0.rawValue)`" },
            "`normal`: a commit survives a crash of the process; `full`: a power loss too, at an fsync per commit (docs/operations.md, Durability)"),
        .value(
            "sqlite.checkpointInterval", \.sqliteCheckpointInterval, parse: ConfigurationParser.seconds,
            show: { "`\($0 == $0.rounded() ? String(Int($0)) : String($0))`" },
            "seconds (fractions allowed, 0.05 to 60) between the background WAL checkpoints, each of which syncs the WAL and the database file (docs/operations.md, Durability)"),
    ]

    /// `SCA_` variables that are not settings, and who reads them. Any other `SCA_` variable is
    /// refused at start-up, so that a typo never leaves a setting at its default.
    package static let otherEnvironmentVariables: [(name: String, readBy: String)] = [
        (configFileVariable, "`sca-server`: the JSON configuration file, like `--config`"),
        ("SCA_SERVER", "`sca`: the server URL, like its `--server`"),
        ("SCA_TEST_POSTGRES_URL", "the test suite: a PostgreSQL database to test against"),
        ("SCA_TEST_SCHEMATHESIS", "the test suite: the `schemathesis` executable"),
    ]

    /// The variable naming the configuration file.
    package static let configFileVariable = "SCA_CONFIG"

    /// The row of a plain key (not a family), for flags and their help.
    package static func named(_ key: String) -> ConfigurationSetting? {
        all.first { $0.family == nil && $0.key == key }
    }
}

extension ServerConfiguration {
    /// Changes the policy of the operation named `member` (a family member, so a known one).
    fileprivate mutating func updatePolicy(_ member: String, _ change: (inout OperationPolicy) throws -> Void) throws {
        guard let operation = OperationKind(rawValue: member) else { throw ConfigurationError("unknown operation \(member)") }
        var policy = self.policy(for: operation)
        try change(&policy)
        policies[operation] = policy
    }
}
