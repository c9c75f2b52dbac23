import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SCACore
import SCAEngine
import SCAServer
import Testing

@Suite("Logging: request ids on every line, never a secret")
struct LoggingTests {
    static let acme = Transaction(
        amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR76 3000 6000 0112 3456 7890 189"))

    @Test("every flow at trace level: no secret in any line; proof lines name the request and the challenge")
    func noSecretsInLogs() async throws {
        let capture = LogCapture()
        let server = try await TestServer(logger: capture.logger(label: "sca-server", metadataProvider: .requestInfo))
        let secrets = SecretList()
        secrets.add(TestServer.adminKey)
        defer { try? FileManager.default.removeItem(at: server.directory) }
        // Hummingbird's own lines (request received, errors) go to the same capture.
        let app = Application(
            router: server.services.router(), logger: capture.logger(label: "hummingbird", metadataProvider: .requestInfo))
        try await app.test(.router) { client in
            let api = APIClient(client: client, clock: server.clock, services: server.services)
            try await Self.runEveryFlow(api, secrets: secrets)
        }

        // The detector itself: a code as a word is a leak, a run inside a hex id is not.
        #expect(Self.contains("sent code=604215 to", "604215"))
        #expect(!Self.contains("request=a42c604215f7", "604215"))
        #expect(secrets.all.count > 25)
        let lines = capture.captured
        #expect(lines.count > 20, "the flows should have been logged")
        for line in lines {
            let text = line.rendered
            for secret in secrets.all where Self.contains(text, secret) {
                Issue.record("a log line contains a secret used in the test: \(text)")
            }
        }
        let proofLines = lines.filter { $0.message == "proof evaluated" }
        // Every evaluated proof: 2 + 2 (logins) + 2 + 2 (payments) + at least 4 wrong passwords.
        #expect(proofLines.count >= 12)
        for line in proofLines {
            #expect(line.metadata["request"]?.isEmpty == false, "\(line.rendered)")
            #expect(line.metadata["challenge"]?.hasPrefix("ch_") == true, "\(line.rendered)")
        }
        // Every service line logged while serving a request names it.
        for line in lines where line.label == "sca-server" {
            #expect(line.metadata["request"] != nil, "\(line.rendered)")
        }
    }

    /// Outside a request the provider adds nothing (start-up, the admin CLI).
    @Test("outside a request no request metadata is added")
    func noRequestOutsideRequests() {
        #expect(Logger.MetadataProvider.requestInfo.get().isEmpty)
        let inside = RequestInfo.$current.withValue(RequestInfo(requestID: "r-1", clientAddress: nil)) {
            Logger.MetadataProvider.requestInfo.get()
        }
        #expect(inside["request"] == .string("r-1"))
    }

    // MARK: The flows

    /// The flows a user and an operator go through, each secret noted as it is used.
    static func runEveryFlow(_ api: APIClient, secrets: SecretList) async throws {
        // Admin: create (password, PIN, phone), update the password, enrol TOTP, unblock.
        let password = "logging test pass phrase"
        let pin = "73915482"
        secrets.add(password, pin)
        let userID = try await api.createUser("log@example.com", password: "first pass phrase 1", pin: pin, phone: "+33612345699")
        secrets.add("first pass phrase 1")
        let updated = try await api.send(
            .patch, "/admin/v1/users/\(userID)", body: try WireJSON.encoder().encode(UpdateUserRequest(password: password)),
            admin: true)
        #expect(updated.status == 200)
        let enrollment = try await api.send(.post, "/admin/v1/users/\(userID)/totp", admin: true)
        #expect(enrollment.status == 201)
        let seed = try enrollment.decode(TOTPEnrollmentResponse.self)
        secrets.add(seed.secret, seed.otpauthUri)
        let totp = try #require(TOTP.parse(seed.otpauthUri))

        // Manual login: password + TOTP.
        let login = try await api.startChallenge(email: "log@example.com")
        #expect(try await api.prove(login.challengeId, .password, password).status == 200)
        let totpCode = totp.code(at: api.clock.now())
        secrets.add(totpCode)
        let tokens = try await api.prove(login.challengeId, .totp, totpCode).decode(ProofResponse.self)
        #expect(tokens.status == .complete)
        let accessToken = try #require(tokens.accessToken)
        let refreshToken = try #require(tokens.refreshToken)
        secrets.add(accessToken, refreshToken)

        // PIN + SMS code read from the outbox.
        let smsLogin = try await api.startChallenge(email: "log@example.com")
        #expect(try await api.prove(smsLogin.challengeId, .pin, pin).status == 200)
        #expect(try await api.sendCode(smsLogin.challengeId, .smsOTP).status == 202)
        let smsCode = try api.lastCode(sentTo: "+33612345699")
        secrets.add(smsCode)
        let smsTokens = try await api.prove(smsLogin.challengeId, .smsOTP, smsCode).decode(ProofResponse.self)
        #expect(smsTokens.status == .complete)
        secrets.add(try #require(smsTokens.accessToken), try #require(smsTokens.refreshToken))

        // Refresh, then reuse of the old refresh token (revokes the family); introspect; revoke.
        let rotated = try await api.post("/v1/tokens/refresh", RefreshRequest(refreshToken: refreshToken))
        #expect(rotated.status == 200)
        let next = try rotated.decode(TokenResponse.self)
        secrets.add(next.accessToken, try #require(next.refreshToken))
        #expect(try await api.introspect(next.accessToken, operation: .login).active)
        #expect(try await api.post("/v1/tokens/refresh", RefreshRequest(refreshToken: refreshToken)).status == 401)
        #expect(try await api.introspect(accessToken).active == false)
        #expect(try await api.post("/v1/tokens/revoke", RevokeRequest(token: try #require(smsTokens.accessToken))).status == 200)

        // Payment with password + SMS (the code bound to the transaction).
        let payment = try await api.startChallenge(.payment, email: "log@example.com", transaction: acme)
        #expect(try await api.sendCode(payment.challengeId, .smsOTP).status == 202)
        let paymentCode = try api.lastCode(sentTo: "+33612345699")
        secrets.add(paymentCode)
        #expect(try await api.prove(payment.challengeId, .password, password).status == 200)
        let paid = try await api.prove(payment.challengeId, .smsOTP, paymentCode).decode(ProofResponse.self)
        let paymentToken = try #require(paid.accessToken)
        secrets.add(paymentToken)
        #expect(try await api.introspect(paymentToken, transaction: acme, consume: true).active)

        // Device activation, then a payment signed by the device and biometry keys.
        let issued = try await api.send(.post, "/admin/v1/users/\(userID)/activations", admin: true)
        let activationCode = try issued.decode(ActivationCodeResponse.self).activationCode
        secrets.add(activationCode, activationCode.replacingOccurrences(of: "-", with: ""))
        var device = TestDevice()
        let registration = try device.registration(code: activationCode)
        secrets.add(registration.proof, registration.possessionKey, try #require(registration.biometryKey))
        let registered = try await api.post("/v1/devices", registration)
        #expect(registered.status == 201)
        device.deviceID = try registered.decode(RegisteredDeviceResponse.self).deviceId
        let signed = try await api.startChallenge(.payment, userID: userID, device: device, transaction: acme)
            .decode(ChallengeResponse.self)
        let possession = try device.proof(.deviceKey, for: signed)
        let biometry = try device.proof(.biometricKey, for: signed)
        secrets.add(try #require(possession.signature), try #require(biometry.signature))
        #expect(try await api.prove(signed.challengeId, possession).status == 200)
        let signedPayment = try await api.prove(signed.challengeId, biometry).decode(ProofResponse.self)
        secrets.add(try #require(signedPayment.accessToken))

        // Wrong passwords until the user is blocked, then the operator unblocks.
        let wrongPasswords = (1...6).map { "wrong pass phrase \($0)" }
        secrets.add(wrongPasswords)
        var blocked = false
        for wrong in wrongPasswords {
            let challenge = try await api.startChallenge(email: "log@example.com")
            let answer = try await api.prove(challenge.challengeId, .password, wrong)
            if answer.status == 423 {
                blocked = true
                break
            }
        }
        #expect(blocked)
        #expect(try await api.send(.post, "/admin/v1/users/\(userID)/unblock", admin: true).status == 200)

        // Decoy: an unknown user gets an ordinary-looking challenge.
        let decoy = try await api.startChallenge(email: "nobody@example.com")
        let decoyPassword = "decoy pass phrase"
        let decoyCode = "604215"
        secrets.add(decoyPassword, decoyCode)
        #expect(try await api.prove(decoy.challengeId, .password, decoyPassword).status == 200)
        #expect(try await api.prove(decoy.challengeId, .smsOTP, decoyCode).status == 401)
    }

    /// Long secrets anywhere; short ones (codes, PINs) only as a whole word, so that a code
    /// that happens to be a run of a hex request id is not taken for a leak.
    static func contains(_ text: String, _ secret: String) -> Bool {
        guard secret.count < 12 else { return text.contains(secret) }
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: secret, range: searchRange) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            if !(before?.isLetter == true || before?.isNumber == true) && !(after?.isLetter == true || after?.isNumber == true) {
                return true
            }
            searchRange = found.upperBound..<text.endIndex
        }
        return false
    }
}
