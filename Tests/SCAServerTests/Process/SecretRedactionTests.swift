import Foundation
import SCACore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
import SCAEngine
#endif

/// Secrets in the configuration never reach a description, a mirror or a log line, at any
/// level: the service group logs each service's description at `debug`.
@Suite("Secret redaction")
struct SecretRedactionTests {
    static let adminKey = "redaction-admin-key-5f0c2a9e"
    static let serverKey = "q3vXJ0z1Yk8mB2nR4tW6yA9cE1gH3jK5lN7pQ9sU0wE"
    static let databasePassword = "db-pass-7d41c9"

    @Test("String(describing:), String(reflecting:) and dump of a configuration show none of its secrets")
    func configurationShowsNoSecret() {
        var configuration = ServerConfiguration()
        configuration.adminKey = Self.adminKey
        configuration.serverKey = Self.serverKey
        configuration.databaseURL = "postgres://sca:\(Self.databasePassword)@db.internal:5432/sca?sslmode=require"
        configuration.webhookURL = "https://gateway:gw-pass-31@sms.example/send?password=gw-query-pass-77"
        // Still read as what they wrap.
        #expect(configuration.adminKey == Self.adminKey)
        #expect(configuration.databaseURL?.contains(Self.databasePassword) == true)

        var dumped = ""
        dump(configuration, to: &dumped)
        var dumpedServices = ""
        dump(["configuration": configuration], to: &dumpedServices)
        let shown = [
            String(describing: configuration), String(reflecting: configuration), "\(configuration)", dumped, dumpedServices,
        ]
        for text in shown {
            for secret in [Self.adminKey, Self.serverKey, Self.databasePassword, "gw-pass-31", "gw-query-pass-77"] {
                #expect(!text.contains(secret), "\(secret) shown in \(text.prefix(200))")
            }
            #expect(text.contains("<redacted>"))
        }
        // The database URL is shown without its password only.
        #expect(dumped.contains("postgres://sca:<redacted>@db.internal:5432/sca?sslmode=require"))
        #expect(dumped.contains("https://gateway:<redacted>@sms.example/send?password=<redacted>"))
        #expect(Secret(wrappedValue: nil).description == "nil")
        #expect(Secret(wrappedValue: "not a url", showing: .urlWithoutPassword).description == "<redacted>")
    }

    @Test(
        "sca-server serve at trace level through a login, a partner's token request, a webhook registration and a sign-up logs and stores no secret",
        .enabled(if: (try? ServerPair.serverBinary()) != nil, "sca-server binary not built"))
    func serveAtTraceLogsNoSecret() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sca-redaction-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try ServeProcess(
            directory: root,
            environment: [
                "SCA_LOG_LEVEL": "trace", "SCA_ADMIN_KEY": Self.adminKey, "SCA_SERVER_KEY": Self.serverKey,
                "SCA_SCRYPT_LOG_N": "4", "SCA_SCRYPT_R": "1", "SCA_SIGN_UP": "email",
            ])
        let port = try await server.port()
        let http = ChildHTTP(base: "http://127.0.0.1:\(port)", adminKey: Self.adminKey)
        let password = "trace pass phrase 42"
        var secrets = [Self.adminKey, Self.serverKey, password]

        // A login: password, then an SMS code.
        let created = try await http.send(
            "POST", "/admin/v1/users",
            CreateUserRequest(email: "trace@example.com", password: password, phone: "+33612345611"), admin: true)
        #expect(created.status == 201)
        let challenge = try WireJSON.decoder().decode(
            ChallengeResponse.self,
            from: try await http.send(
                "POST", "/v1/challenges",
                CreateChallengeRequest(operation: .login, user: UserReference(email: "trace@example.com"))
            ).body)
        #expect(try await http.send("POST", "/v1/challenges/\(challenge.challengeId)/proofs", ProofRequest(method: .password, credential: password)).status == 200)
        #expect((200..<300).contains(try await http.send("POST", "/v1/challenges/\(challenge.challengeId)/otp", SendCodeRequest(method: .smsOTP)).status))
        let outbox = OutboxMessageSender(path: root.appendingPathComponent("data/outbox.jsonl").path)
        let code = String(try #require(try outbox.messages().last { $0.to == "+33612345611" }).text.prefix(6))
        secrets.append(code)
        let proved = try await http.send(
            "POST", "/v1/challenges/\(challenge.challengeId)/proofs", ProofRequest(method: .smsOTP, credential: code))
        #expect(proved.status == 200)
        let tokens = try WireJSON.decoder().decode(ProofResponse.self, from: proved.body)
        let accessToken = try #require(tokens.accessToken)
        let refreshToken = try #require(tokens.refreshToken)
        secrets += [accessToken, refreshToken]
        #expect(try await http.send("POST", "/v1/tokens/introspect", IntrospectRequest(token: accessToken)).status == 200)

        // A partner: its secret at the token endpoint, then its webhook's signing secret.
        let client = try WireJSON.decoder().decode(
            PartnerClientResponse.self,
            from: try await http.send(
                "POST", "/admin/v1/clients",
                CreatePartnerClientRequest(name: "Shop", redirectUris: ["https://shop.example/callback"]), admin: true
            ).body)
        let clientSecret = try #require(client.clientSecret)
        secrets.append(clientSecret)
        let form = "grant_type=refresh_token&refresh_token=\(refreshToken)&client_id=\(client.clientId)&client_secret=\(clientSecret)"
        let refused = try await http.send("POST", "/oauth2/token", raw: form, contentType: "application/x-www-form-urlencoded")
        #expect((400..<500).contains(refused.status), "a first-party refresh token is not the partner's")
        let webhook = try await http.send(
            "PUT", "/admin/v1/clients/\(client.clientId)/webhook", SetPartnerWebhookRequest(url: "https://hooks.shop.example/sca"),
            admin: true)
        #expect(webhook.status == 200)
        secrets.append(try #require(try WireJSON.decoder().decode(PartnerWebhookResponse.self, from: webhook.body).signingSecret))

        // A sign-up: the e-mail code, the enrolment token, the new user's password.
        let newPassword = "brand new pass phrase 7"
        secrets.append(newPassword)
        let opened = try WireJSON.decoder().decode(
            ChallengeResponse.self,
            from: try await http.send("POST", "/v1/signup-or-in", SignUpOrInRequest(email: "newcomer@example.com")).body)
        #expect((200..<300).contains(try await http.send("POST", "/v1/challenges/\(opened.challengeId)/otp", SendCodeRequest(method: .emailOTP)).status))
        let mailed = String(try #require(try outbox.messages().last { $0.to == "newcomer@example.com" }).text.prefix(6))
        secrets.append(mailed)
        let enrolment = try WireJSON.decoder().decode(
            ProofResponse.self,
            from: try await http.send(
                "POST", "/v1/challenges/\(opened.challengeId)/proofs", ProofRequest(method: .emailOTP, credential: mailed)
            ).body)
        let enrolmentToken = try #require(enrolment.accessToken)
        secrets.append(enrolmentToken)
        #expect(try await http.send("POST", "/v1/me/enrolment", EnrolmentRequest(password: newPassword), bearer: enrolmentToken).status == 200)

        let audit = try await http.send("GET", "/admin/v1/audit", admin: true)
        #expect(audit.status == 200)
        await server.stop()

        let stdout = (try? String(contentsOf: root.appendingPathComponent("stdout.log"), encoding: .utf8)) ?? ""
        let output = stdout + server.log
        // The trace really was on: the service group's debug lines and Hummingbird's are there.
        #expect(output.contains("debug"), "\(output.suffix(500))")
        #expect(output.contains("ServerService"))
        let exported = String(decoding: audit.body, as: UTF8.self)
        // Every file of the data directory (the database, its WAL, the outbox aside): what is
        // stored is hashed or sealed, never a secret as it was sent.
        let dataDirectory = root.appendingPathComponent("data")
        var stored: [(String, Data)] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dataDirectory.path) where !name.hasPrefix("outbox") {
            stored.append((name, try Data(contentsOf: dataDirectory.appendingPathComponent(name))))
        }
        #expect(stored.contains { $0.0.hasSuffix(".sqlite") || $0.0.hasSuffix(".db") }, "\(stored.map(\.0))")
        for secret in secrets {
            #expect(!output.contains(secret), "the server's output contains a secret: \(secret.prefix(6))…")
            #expect(!exported.contains(secret), "the audit export contains a secret: \(secret.prefix(6))…")
            for (name, bytes) in stored {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(name) contains a secret: \(secret.prefix(6))…")
            }
        }
    }
}

/// Plain JSON requests to a child server.
struct ChildHTTP: Sendable {
    let base: String
    let adminKey: String

    struct Answer: Sendable {
        var status: Int
        var body: Data
    }

    func send(
        _ method: String, _ path: String, _ value: some Encodable, admin: Bool = false, bearer: String? = nil
    ) async throws -> Answer {
        try await send(
            method, path, raw: String(decoding: try WireJSON.encoder().encode(value), as: UTF8.self), admin: admin, bearer: bearer)
    }

    func send(
        _ method: String, _ path: String, raw: String? = nil, contentType: String = "application/json", admin: Bool = false,
        bearer: String? = nil
    ) async throws -> Answer {
        var request = URLRequest(url: try #require(URL(string: base + path)))
        request.httpMethod = method
        if let raw {
            request.httpBody = Data(raw.utf8)
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        if admin { request.setValue("Bearer \(adminKey)", forHTTPHeaderField: "Authorization") }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        let (body, response) = try await URLSession.shared.data(for: request)
        return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: body)
    }
}
