import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SCACore
import SCAEngine
import Testing

/// OTP pumping: codes are limited per destination, user, client address and in all,
/// across challenges and whatever the challenge; challenges per client address. Beyond a
/// budget: 429 `rate.limited` with `Retry-After`, no message, a metric and an audit entry.
@Suite("Send and challenge budgets across challenges")
struct SendLimitTests {
    static let proxyHeader = "X-Forwarded-For"
    static let wide = [RateWindow(count: 1_000, seconds: 600)]

    /// A server whose budgets are wide except those `customize` sets, trusting `X-Forwarded-For`
    /// so each test can speak from the client address it needs.
    static func server(_ customize: @escaping (inout RateLimits) -> Void) async throws -> TestServer {
        try await TestServer {
            $0.trustedProxyHeader = proxyHeader
            $0.rateLimits.sendsPerDestination = wide
            $0.rateLimits.sendsPerUser = wide
            $0.rateLimits.sendsPerClient = wide
            $0.rateLimits.sendsGlobal = wide
            $0.rateLimits.challengesPerClient = wide
            customize(&$0.rateLimits)
        }
    }

    @Test("a loop of new challenges sending SMS codes stops at the destination's budget")
    func smsPerDestination() async throws {
        try await Self.server { $0.sendsPerDestination = [RateWindow(count: 3, seconds: 600), RateWindow(count: 10, seconds: 86_400)] }
            .run { api in
                let userID = try await api.createUser("pumped@example.com", phone: "+33612345001")
                var statuses: [Int] = []
                var refusal: APIResponse?
                for _ in 0..<8 {
                    let challenge = try await api.startChallenge(email: "pumped@example.com")
                    let sent = try await api.sendCode(challenge.challengeId, .smsOTP)
                    statuses.append(sent.status)
                    if sent.status == 429 { refusal = sent }
                }
                #expect(statuses == [202, 202, 202, 429, 429, 429, 429, 429])
                let limited = try #require(refusal)
                #expect(limited.problem?.code == .rateLimited)
                #expect(limited.headers[.retryAfter] == "600")
                #expect(limited.problem?.retryAfter == 600)
                #expect(try api.outbox().filter { $0.to == "+33612345001" }.count == 3)
                #expect(try api.outbox().count == 3)

                // The trail says which budget, never the destination; the metric counts each refusal.
                let entries = try await api.auditEvents("rate.limited")
                #expect(entries.count == 5)
                #expect(entries.allSatisfy {
                    $0.details["budget"] == "destination" && $0.details["action"] == "send" && $0.details["channel"] == "sms"
                        && $0.userID == userID && $0.outcome == "refused"
                })
                #expect(!entries.contains { $0.details.values.contains { $0.contains("612345001") } })
                #expect(try await api.metricLines().contains(#"sca_rate_limited_total{action="send",budget="destination"} 5"#))
                #expect(try await api.metricLines().contains(#"sca_codes_sent_total{channel="sms"} 3"#))
            }
    }

    @Test("the same for e-mail codes")
    func emailPerDestination() async throws {
        try await Self.server { $0.sendsPerDestination = [RateWindow(count: 3, seconds: 600)] }.run { api in
            _ = try await api.createUser("inbox@example.com", emailCodes: true)
            var statuses: [Int] = []
            for _ in 0..<6 {
                let challenge = try await api.startChallenge(email: "inbox@example.com")
                statuses.append(try await api.sendCode(challenge.challengeId, .emailOTP).status)
            }
            #expect(statuses == [202, 202, 202, 429, 429, 429])
            #expect(try api.outbox().filter { $0.to == "inbox@example.com" }.count == 3)
        }
    }

    @Test("one user's budget holds across both channels")
    func perUserAcrossChannels() async throws {
        try await Self.server { $0.sendsPerUser = [RateWindow(count: 4, seconds: 600)] }.run { api in
            _ = try await api.createUser("both@example.com", phone: "+33612345002", emailCodes: true)
            var statuses: [Int] = []
            for method in [AuthenticationMethod.smsOTP, .emailOTP, .smsOTP, .emailOTP, .smsOTP, .emailOTP] {
                let challenge = try await api.startChallenge(email: "both@example.com")
                statuses.append(try await api.sendCode(challenge.challengeId, method).status)
            }
            #expect(statuses == [202, 202, 202, 202, 429, 429])
            #expect(try api.outbox().count == 4)
            #expect(try await api.auditEvents("rate.limited").allSatisfy { $0.details["budget"] == "user" })
        }
    }

    @Test("one client address cannot pump many destinations")
    func perClientAddress() async throws {
        try await Self.server { $0.sendsPerClient = [RateWindow(count: 2, seconds: 600)] }.run { api in
            for index in 1...4 { _ = try await api.createUser("user\(index)@example.com", phone: "+3361234510\(index)") }
            var statuses: [Int] = []
            for index in 1...3 {
                let challenge = try await api.startChallenge(email: "user\(index)@example.com", from: "198.51.100.1")
                statuses.append(try await api.sendCode(challenge, .smsOTP, from: "198.51.100.1").status)
            }
            #expect(statuses == [202, 202, 429])
            let refused = try await api.auditEvents("rate.limited")
            #expect(refused.count == 1 && refused[0].details["budget"] == "client")
            #expect(refused[0].clientAddress == "198.51.100.1")
            // Another address has its own budget.
            let other = try await api.startChallenge(email: "user4@example.com", from: "198.51.100.2")
            #expect(try await api.sendCode(other, .smsOTP, from: "198.51.100.2").status == 202)
            #expect(try api.outbox().count == 3)
        }
    }

    @Test("the global budget per minute holds for everyone, and frees when its minute has passed")
    func globalBudget() async throws {
        try await Self.server { $0.sendsGlobal = [RateWindow(count: 4, seconds: 60)] }.run { api in
            for index in 1...6 { _ = try await api.createUser("g\(index)@example.com", phone: "+3361234520\(index)") }
            var statuses: [Int] = []
            var retryAfter: String?
            for index in 1...5 {
                let challenge = try await api.startChallenge(email: "g\(index)@example.com", from: "203.0.113.\(index)")
                api.clock.advance(by: 5)
                let sent = try await api.sendCode(challenge, .smsOTP, from: "203.0.113.\(index)")
                statuses.append(sent.status)
                if sent.status == 429 { retryAfter = sent.headers[.retryAfter] }
            }
            #expect(statuses == [202, 202, 202, 202, 429])
            // The first of the four went out 20 s ago: room in 40 s.
            #expect(retryAfter == "40")
            #expect(try await api.auditEvents("rate.limited").map { $0.details["budget"] } == ["global"])
            api.clock.advance(by: 40)
            let later = try await api.startChallenge(email: "g6@example.com", from: "203.0.113.6")
            #expect(try await api.sendCode(later, .smsOTP, from: "203.0.113.6").status == 202)
            #expect(try api.outbox().count == 5)
        }
    }

    @Test("a decoy is limited exactly like a real user typed the same way")
    func decoyLimitedLikeRealUser() async throws {
        try await Self.server {
            $0.sendsPerDestination = [RateWindow(count: 3, seconds: 600)]
            $0.sendsPerUser = [RateWindow(count: 5, seconds: 600)]
        }.run { api in
            _ = try await api.createUser("real@example.com", phone: "+33612345003", emailCodes: true)
            let pattern: [AuthenticationMethod] = [.smsOTP, .smsOTP, .emailOTP, .smsOTP, .smsOTP, .emailOTP, .emailOTP, .emailOTP]
            var answers: [String: [String]] = [:]
            for email in ["real@example.com", "ghost@example.com"] {
                for method in pattern {
                    let challenge = try await api.startChallenge(email: email)
                    let sent = try await api.sendCode(challenge.challengeId, method)
                    answers[email, default: []].append("\(sent.status) \(sent.problem?.code.rawValue ?? "-") \(sent.headers[.retryAfter] ?? "-")")
                }
            }
            // Destination: SMS 3 then refused; user: 5 in all, so the third e-mail is refused too.
            #expect(answers["real@example.com"] == [
                "202 - -", "202 - -", "202 - -", "202 - -", "429 rate.limited 600", "202 - -", "429 rate.limited 600",
                "429 rate.limited 600",
            ])
            #expect(answers["ghost@example.com"] == answers["real@example.com"])
            // Only the real user's codes went out.
            #expect(try api.outbox().count == 5)
            let refused = try await api.auditEvents("rate.limited")
            #expect(refused.count == 6)
            #expect(refused.filter { $0.userID == nil }.count == 3, "the decoy's refusals are recorded too, without a user")
        }
    }

    @Test("challenges per client address: 429 with Retry-After, known users and decoys alike; the window frees it")
    func challengesPerClientAddress() async throws {
        try await Self.server { $0.challengesPerClient = [RateWindow(count: 3, seconds: 60)] }.run { api in
            _ = try await api.createUser("opener@example.com")
            var statuses: [Int] = []
            for email in ["opener@example.com", "nobody@example.com", "opener@example.com", "nobody@example.com"] {
                statuses.append(try await api.createChallenge(email: email, from: "192.0.2.10").status)
            }
            #expect(statuses == [201, 201, 201, 429])
            let refused = try await api.createChallenge(email: "opener@example.com", from: "192.0.2.10")
            #expect(refused.problem?.code == .rateLimited)
            #expect(refused.headers[.retryAfter] == "60")
            // Nothing was opened by the refusals.
            #expect(try await api.auditEvents("challenge.created").count == 3)
            #expect(try await api.auditEvents("rate.limited").allSatisfy { $0.details["action"] == "challenge" && $0.details["budget"] == "client" })
            #expect(try await api.metricLines().contains(#"sca_rate_limited_total{action="challenge",budget="client"} 2"#))
            #expect(try await api.createChallenge(email: "opener@example.com", from: "192.0.2.11").status == 201)
            api.clock.advance(by: 60)
            #expect(try await api.createChallenge(email: "opener@example.com", from: "192.0.2.10").status == 201)
        }
    }

    @Test("the injected clock frees a budget once its window has passed, the daily one included")
    func windowsSlideWithTheClock() async throws {
        try await Self.server { $0.sendsPerDestination = [RateWindow(count: 3, seconds: 600), RateWindow(count: 5, seconds: 86_400)] }
            .run { api in
                _ = try await api.createUser("patient@example.com", phone: "+33612345004")
                func send() async throws -> APIResponse {
                    try await api.sendCode(try await api.startChallenge(email: "patient@example.com").challengeId, .smsOTP)
                }
                for _ in 0..<3 { #expect(try await send().status == 202) }
                let refused = try await send()
                #expect(refused.status == 429)
                #expect(refused.headers[.retryAfter] == "600")
                api.clock.advance(by: 599)
                #expect(try await send().headers[.retryAfter] == "1")
                api.clock.advance(by: 1)
                // The 10-minute window has passed; the daily budget has two left.
                #expect(try await send().status == 202)
                #expect(try await send().status == 202)
                let daily = try await send()
                #expect(daily.status == 429)
                #expect(daily.headers[.retryAfter] == String(86_400 - 600))
                api.clock.advance(by: 86_400 - 600)
                #expect(try await send().status == 202)
                #expect(try api.outbox().count == 6)
            }
    }

    @Test("the defaults: 3 codes per destination in 10 minutes")
    func defaultDestinationBudget() async throws {
        try await TestServer().run { api in
            _ = try await api.createUser("default@example.com", phone: "+33612345005")
            var statuses: [Int] = []
            for _ in 0..<4 {
                let challenge = try await api.startChallenge(email: "default@example.com")
                statuses.append(try await api.sendCode(challenge.challengeId, .smsOTP).status)
            }
            #expect(statuses == [202, 202, 202, 429])
        }
    }

    @Test("limits that make no sense are refused at start-up")
    func nonsenseRefused() throws {
        let loader = ConfigurationLoader()
        for (key, value) in [
            ("sendLimitsPerDestination", "0/10m"), ("sendLimitsPerUser", "3"), ("sendLimitsPerClient", "3/0"),
            ("sendLimitsGlobal", "-1/60"), ("challengeLimitsPerClient", "3/8d"), ("sendLimitsPerDestination", "3/10m,5/600"),
            ("sendLimitsPerDestination", "three/10m"), ("decoyMethods", "password,device_key"), ("decoyMethods", "password,password"),
            ("decoyPhonePattern", "0612345678"), ("decoyPhonePattern", "+33612345678"),
        ] {
            #expect(throws: ConfigurationError.self, "\(key)=\(value)") {
                try loader.load(file: nil, environment: [:], flags: [key: value])
            }
        }
        let loaded = try loader.load(
            file: nil,
            environment: ["SCA_SEND_LIMITS_PER_DESTINATION": "2/5m, 8/1d", "SCA_SEND_LIMITS_GLOBAL": "off"],
            flags: ["challengeLimitsPerClient": "10/60", "decoyMethods": "password,totp", "decoyPhonePattern": "+4915########"])
        #expect(loaded.rateLimits.sendsPerDestination == [RateWindow(count: 2, seconds: 300), RateWindow(count: 8, seconds: 86_400)])
        #expect(loaded.rateLimits.sendsGlobal.isEmpty)
        #expect(loaded.rateLimits.challengesPerClient == [RateWindow(count: 10, seconds: 60)])
        #expect(loaded.decoyMethods == [.password, .totp])
        #expect(loaded.decoyPhonePattern == "+4915########")
    }
}

extension APIClient {
    /// `POST` with a client address, as the trusted proxy would have written it.
    func post(_ path: String, _ value: some Encodable, from address: String) async throws -> APIResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        headers[try #require(HTTPField.Name(SendLimitTests.proxyHeader))] = address
        let response = try await client.execute(
            uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: try WireJSON.encoder().encode(value)))
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    }

    func createChallenge(email: String, from address: String) async throws -> APIResponse {
        try await post("/v1/challenges", CreateChallengeRequest(operation: .login, user: UserReference(email: email)), from: address)
    }

    /// Opens a login challenge from `address`; returns its id.
    func startChallenge(email: String, from address: String) async throws -> String {
        let response = try await createChallenge(email: email, from: address)
        #expect(response.status == 201)
        return try response.decode(ChallengeResponse.self).challengeId
    }

    func sendCode(_ challengeID: String, _ method: AuthenticationMethod, from address: String) async throws -> APIResponse {
        try await post("/v1/challenges/\(challengeID)/otp", SendCodeRequest(method: method), from: address)
    }

    /// Every message the development outbox holds.
    func outbox() throws -> [OutboundMessage] {
        try #require(services.outbox).messages()
    }

    /// The audit entries of one event, oldest first.
    func auditEvents(_ event: String) async throws -> [AuditEntryDraft] {
        try await services.store.auditEntries(after: 0, limit: 10_000).map(\.draft).filter { $0.event == event }
    }

    /// The lines of `GET /metrics`.
    func metricLines() async throws -> Set<String> {
        let response = try await send(.get, "/metrics")
        return Set(String(decoding: response.body, as: UTF8.self).split(separator: "\n").map(String.init))
    }
}
