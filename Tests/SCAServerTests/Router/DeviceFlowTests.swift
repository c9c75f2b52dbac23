import Crypto
import Foundation
import SCACore
import SCAEngine
import Testing

@Suite("Devices: activation, cold start, signed payments")
struct DeviceFlowTests {
    static let acme = Transaction(
        amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR76 3000 6000 0112 3456 7890 189"))

    @Test("activate a device with a code; the code is single use; the device reports its status")
    func activation() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("dev@example.com")
            let issued = try await api.send(.post, "/admin/v1/users/\(userID)/activations", admin: true)
            let code = try issued.decode(ActivationCodeResponse.self).activationCode
            #expect(ActivationCode(code)?.description == code)
            var device = TestDevice()
            let registered = try await api.post("/v1/devices", try device.registration(code: code))
            #expect(registered.status == 201)
            let response = try registered.decode(RegisteredDeviceResponse.self)
            #expect(response.userId == userID)
            #expect(response.status == .active)
            device.deviceID = response.deviceId

            let status = try await api.send(.get, "/v1/devices/\(device.deviceID)/status").decode(DeviceStatusResponse.self)
            #expect(status == DeviceStatusResponse(status: .active, failCount: 0, maxFailCount: 5, remainingAttempts: 5))

            let again = try await api.post("/v1/devices", try TestDevice().registration(code: code))
            #expect(again.status == 400)
            #expect(again.problem?.code == .activationCodeInvalid)
            let view = try await api.send(.get, "/admin/v1/users/\(userID)", admin: true).decode(UserResponse.self)
            #expect(view.devices.map(\.deviceId) == [device.deviceID])
        }
    }

    @Test("a mistyped code counts a try; five void it; an expired code fails")
    func activationCodeTries() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("tries@example.com")
            let code = try await api.send(.post, "/admin/v1/users/\(userID)/activations", admin: true)
                .decode(ActivationCodeResponse.self).activationCode
            // Same first group, other (CRC-valid) remainder: counted against this code.
            let wrong = try #require(Self.codeSharingLookup(with: code))
            for remaining in stride(from: 4, through: 0, by: -1) {
                let attempt = try await api.post("/v1/devices", try TestDevice().registration(code: wrong))
                #expect(attempt.problem?.code == .activationCodeInvalid)
                #expect(attempt.problem?.remainingAttempts == remaining)
            }
            #expect(try await api.post("/v1/devices", try TestDevice().registration(code: code)).status == 400)

            let late = try await api.send(.post, "/admin/v1/users/\(userID)/activations", admin: true)
                .decode(ActivationCodeResponse.self).activationCode
            api.clock.advance(by: 301)
            #expect(try await api.post("/v1/devices", try TestDevice().registration(code: late)).status == 400)
        }
    }

    @Test("malformed keys, proofs and codes: 400 and nothing written (the code still works)")
    func malformedRegistration() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("keys@example.com")
            let code = try await api.send(.post, "/admin/v1/users/\(userID)/activations", admin: true)
                .decode(ActivationCodeResponse.self).activationCode
            let device = TestDevice()
            let good = try device.registration(code: code)
            var shortKey = good
            shortKey.possessionKey = Base64URL.encode(device.possessionKey.publicKey.x963Representation.dropLast())
            var offCurve = good
            offCurve.possessionKey = Base64URL.encode([0x04] + [UInt8](repeating: 1, count: 64))
            var badBiometry = good
            badBiometry.biometryKey = Base64URL.encode([UInt8](repeating: 7, count: 65))
            var notBase64 = good
            notBase64.possessionKey = "***"
            var shortProof = good
            shortProof.proof = Base64URL.encode([UInt8](repeating: 0, count: 63))
            var otherKeyProof = good
            otherKeyProof.possessionKey = Base64URL.encode(P256.Signing.PrivateKey().publicKey.x963Representation)
            var badCode = good
            badCode.activationCode = "AAAAA-AAAAA-AAAAA-AAAAB"
            var emptyName = good
            emptyName.name = ""
            for (request, expected) in [
                (shortKey, ProblemCode.requestInvalid), (offCurve, .requestInvalid), (badBiometry, .requestInvalid),
                (notBase64, .requestInvalid), (shortProof, .requestInvalid), (otherKeyProof, .deviceProofInvalid),
                (badCode, .activationCodeInvalid), (emptyName, .requestInvalid),
            ] {
                let response = try await api.post("/v1/devices", request)
                #expect(response.status == 400)
                #expect(response.problem?.code == expected)
            }
            #expect(try await api.services.devices.devices(of: userID).isEmpty)
            #expect(try await api.post("/v1/devices", good).status == 201)
        }
    }

    @Test("cold start: a login with the device key and the biometry key alone")
    func coldStart() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("cold@example.com")
            var device = TestDevice()
            try await api.activate(&device, userID: userID)
            let challenge = try await api.startChallenge(.login, userID: userID, device: device).decode(ChallengeResponse.self)
            #expect(challenge.methods.map(\.id).contains(.deviceKey))
            #expect(challenge.methods.map(\.id).contains(.biometricKey))

            let partial = try await api.prove(challenge.challengeId, try device.proof(.deviceKey, for: challenge))
            #expect(try partial.decode(ProofResponse.self).status == .partial)
            let complete = try await api.prove(challenge.challengeId, try device.proof(.biometricKey, for: challenge))
                .decode(ProofResponse.self)
            #expect(complete.status == .complete)
            #expect(complete.amr == [.deviceKey, .biometricKey])
            #expect(complete.satisfiedCategories == [.possession, .inherence])
            let status = try await api.services.devices.status(of: device.deviceID)
            #expect(status.failCount == 0)
        }
    }

    @Test("payment with device + biometry keys: the token carries the digest")
    func paymentWithKeys() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("pay@example.com")
            var device = TestDevice()
            try await api.activate(&device, userID: userID)
            let challenge = try await api.startChallenge(.payment, userID: userID, device: device, transaction: Self.acme)
                .decode(ChallengeResponse.self)
            #expect(challenge.display == TransactionDisplay(amount: "125.00", currency: "EUR", payee: "ACME SAS", iban: "FR76…0189"))
            var normalized = Self.acme
            normalized.payee.iban = "FR7630006000011234567890189"
            #expect(challenge.transactionDigest == normalized.digest)

            try await api.prove(challenge.challengeId, try device.proof(.deviceKey, for: challenge))
            let complete = try await api.prove(challenge.challengeId, try device.proof(.biometricKey, for: challenge))
                .decode(ProofResponse.self)
            let token = try #require(complete.accessToken)
            let introspection = try await api.introspect(token, operation: .payment, transaction: Self.acme)
            #expect(introspection.active)
            #expect(introspection.txn == challenge.transactionDigest)
        }
    }

    @Test("payment with password + SMS: the message shows amount and payee; the code is bound to the digest")
    func paymentWithSMS() async throws {
        try await TestServer().run { api in
            _ = try await api.createUser("smspay@example.com", phone: "+33612345617")
            let challenge = try await api.startChallenge(.payment, email: "smspay@example.com", transaction: Self.acme)
            #expect(try await api.sendCode(challenge.challengeId, .smsOTP).status == 202)
            let message = try #require(try api.services.outbox?.messages().last)
            #expect(message.text.contains("to pay €125.00 to ACME SAS, FR76…0189"))
            let code = String(message.text.prefix(6))
            try await api.prove(challenge.challengeId, .password, "correct horse battery")
            let complete = try await api.prove(challenge.challengeId, .smsOTP, code).decode(ProofResponse.self)
            #expect(complete.status == .complete)
            let token = try #require(complete.accessToken)
            #expect(try await api.introspect(token, transaction: Self.acme).active)
        }
    }

    @Test("tampering: amount +0.01, another payee name, another IBAN: rejected at the proof and inactive at introspection")
    func tampering() async throws {
        try await TestServer { $0.policies[.payment] = OperationPolicy(verdict: .immediate) }.run { api in
            let userID = try await api.createUser("tamper@example.com")
            var device = TestDevice()
            try await api.activate(&device, userID: userID)
            var moreMoney = Self.acme
            moreMoney.amount = "125.01"
            var otherName = Self.acme
            otherName.payee.name = "ACME SARL"
            var otherIBAN = Self.acme
            otherIBAN.payee.iban = "DE89370400440532013000"
            let challenge = try await api.startChallenge(.payment, userID: userID, device: device, transaction: Self.acme)
                .decode(ChallengeResponse.self)
            for tampered in [moreMoney, otherName, otherIBAN] {
                let normalized = try TransactionRules.normalized(tampered).get()
                #expect(normalized.digest != challenge.transactionDigest)
                // The client signed what it was shown in a tampered view: the server refuses it.
                let rejected = try await api.prove(challenge.challengeId, try device.proof(.deviceKey, for: challenge, digest: normalized.digest))
                #expect(rejected.status == 401)
                #expect(rejected.problem?.code == .proofRejected)
            }
            // Unblock the user (three failures so far) and finish honestly.
            try await api.prove(challenge.challengeId, try device.proof(.deviceKey, for: challenge))
            let complete = try await api.prove(challenge.challengeId, try device.proof(.biometricKey, for: challenge))
                .decode(ProofResponse.self)
            let token = try #require(complete.accessToken)
            for tampered in [moreMoney, otherName, otherIBAN] {
                #expect(try await api.introspect(token, transaction: tampered).active == false)
            }
            #expect(try await api.introspect(token, transaction: Self.acme).active)
        }
    }

    @Test("a signature replayed on another challenge is rejected, twice on the same one refused as a replay")
    func signatureReplay() async throws {
        try await TestServer {
            $0.policies[.login] = OperationPolicy(verdict: .immediate)
            $0.policies[.payment] = OperationPolicy(verdict: .immediate)
        }.run { api in
            let userID = try await api.createUser("replaysig@example.com")
            var device = TestDevice()
            try await api.activate(&device, userID: userID)
            let first = try await api.startChallenge(.login, userID: userID, device: device).decode(ChallengeResponse.self)
            let proof = try device.proof(.deviceKey, for: first)
            #expect(try await api.prove(first.challengeId, proof).status == 200)
            #expect(try await api.prove(first.challengeId, proof).problem?.code == .codeAlreadyUsed)

            let second = try await api.startChallenge(.login, userID: userID, device: device).decode(ChallengeResponse.self)
            #expect(try await api.prove(second.challengeId, proof).problem?.code == .proofRejected)
            // A login signature is no payment signature either.
            let payment = try await api.startChallenge(.payment, userID: userID, device: device, transaction: Self.acme)
                .decode(ChallengeResponse.self)
            let loginShaped = try device.proof(.deviceKey, for: payment, digest: .some(nil))
            #expect(try await api.prove(payment.challengeId, loginShaped).problem?.code == .proofRejected)
        }
    }

    @Test("a wrong key 5 times blocks the device; blocked and removed devices are refused with a clear code")
    func blockedAndRemovedDevices() async throws {
        try await TestServer {
            $0.policies[.login] = OperationPolicy(verdict: .immediate)
        }.run { api in
            let userID = try await api.createUser("block@example.com")
            var device = TestDevice()
            try await api.activate(&device, userID: userID)
            let challenge = try await api.startChallenge(.login, userID: userID, device: device).decode(ChallengeResponse.self)
            let impostor = P256.Signing.PrivateKey()
            for _ in 0..<5 {
                #expect(try await api.prove(challenge.challengeId, try device.proof(.deviceKey, for: challenge, key: impostor)).status == 401)
            }
            let status = try await api.send(.get, "/v1/devices/\(device.deviceID)/status").decode(DeviceStatusResponse.self)
            #expect(status == DeviceStatusResponse(status: .blocked, failCount: 5, maxFailCount: 5, remainingAttempts: 0))
            try await api.send(.post, "/admin/v1/users/\(userID)/unblock", admin: true)

            let refused = try await api.startChallenge(.login, userID: userID, device: device)
            #expect(refused.status == 403)
            #expect(refused.problem?.code == .deviceBlocked)

            #expect(try await api.send(.post, "/admin/v1/devices/\(device.deviceID)/unblock", admin: true).status == 200)
            let open = try await api.startChallenge(.login, userID: userID, device: device).decode(ChallengeResponse.self)
            #expect(try await api.send(.delete, "/admin/v1/devices/\(device.deviceID)", admin: true).status == 200)
            // A challenge opened before the removal cannot use the device either.
            let late = try await api.prove(open.challengeId, try device.proof(.deviceKey, for: open))
            #expect(late.problem?.code == .deviceRemoved)
            #expect(try await api.startChallenge(.login, userID: userID, device: device).problem?.code == .deviceRemoved)
            // Removed is final.
            #expect(try await api.send(.post, "/admin/v1/devices/\(device.deviceID)/unblock", admin: true)
                .decode(DeviceResponse.self).status == .removed)
        }
    }

    @Test("a high-value payment needs all three categories; a currency without a rate too")
    func highValuePayment() async throws {
        try await TestServer { $0.exchangeRates = ["USD": "0.90"] }.run { api in
            let userID = try await api.createUser("big@example.com")
            var device = TestDevice()
            try await api.activate(&device, userID: userID)
            func required(_ amount: String, _ currency: String) async throws -> Int {
                let transaction = Transaction(amount: amount, currency: currency, payee: .init(name: "ACME SAS"))
                let response = try await api.startChallenge(.payment, userID: userID, device: device, transaction: transaction)
                return try response.decode(ChallengeResponse.self).requiredCategories
            }
            #expect(try await required("999.99", "EUR") == 2)
            #expect(try await required("1000.00", "EUR") == 3)
            #expect(try await required("1111.00", "USD") == 2)   // 999.90 EUR
            #expect(try await required("1112.00", "USD") == 3)   // 1000.80 EUR
            #expect(try await required("100.00", "GBP") == 3)    // no rate configured: fail safe
            // Without a device that proves inherence, three categories cannot be had: refused up front.
            let big = Transaction(amount: "5000.00", currency: "EUR", payee: .init(name: "ACME SAS"))
            let unsatisfiable = try await api.post(
                "/v1/challenges", CreateChallengeRequest(operation: .payment, user: UserReference(email: "big@example.com"), transaction: big))
            #expect(unsatisfiable.status == 422)
            #expect(unsatisfiable.problem?.code == .categoriesUnavailable)
            var halfDevice = TestDevice()
            try await api.activate(&halfDevice, userID: userID, withBiometry: false)
            #expect(try await api.startChallenge(.payment, userID: userID, device: halfDevice, transaction: big).status == 422)
            // And a high-value payment completes with all three.
            let challenge = try await api.startChallenge(.payment, userID: userID, device: device, transaction: big)
                .decode(ChallengeResponse.self)
            #expect(try await api.prove(challenge.challengeId, .password, "correct horse battery").status == 200)
            try await api.prove(challenge.challengeId, try device.proof(.deviceKey, for: challenge))
            let done = try await api.prove(challenge.challengeId, try device.proof(.biometricKey, for: challenge)).decode(ProofResponse.self)
            #expect(done.status == .complete)
            #expect(done.satisfiedCategories == [.knowledge, .possession, .inherence])
            let jpy = Transaction(amount: "125.00", currency: "JPY", payee: .init(name: "ACME"))
            let refused = try await api.post(
                "/v1/challenges", CreateChallengeRequest(operation: .payment, user: UserReference(email: "big@example.com"), transaction: jpy))
            #expect(refused.status == 400)
        }
    }

    @Test("a user's own API: activation needs a device_activation token (used once); settings need a settings_change token")
    func userAPI() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("self@example.com")
            let totp = try await api.enrollTOTP(userID)
            let login = try #require(try await api.logIn("self@example.com", totp: totp).accessToken)

            #expect(try await api.bearer(.post, "/v1/activations", token: "garbage").status == 401)
            #expect(try await api.send(.post, "/v1/activations").status == 401)
            // Binding a device needs its own SCA (RTS art. 24): the login token used to be
            // enough; now it is refused, and what is needed is named.
            let withLogin = try await api.bearer(.post, "/v1/activations", token: login)
            #expect(withLogin.status == 403)
            #expect(withLogin.problem?.code == .forbidden)
            #expect(withLogin.problem?.detail?.contains("device_activation") == true)
            api.clock.advance(by: 30)
            let activation = try await api.startChallenge(.deviceActivation, email: "self@example.com")
            try await api.prove(activation.challengeId, .password, "correct horse battery")
            let activationToken = try #require(
                try await api.prove(activation.challengeId, .totp, totp.code(at: api.clock.now())).decode(ProofResponse.self).accessToken)
            let issued = try await api.bearer(.post, "/v1/activations", token: activationToken)
            #expect(issued.status == 201)
            let again = try await api.bearer(.post, "/v1/activations", token: activationToken)  // one code per SCA
            #expect(again.status == 401)
            #expect(again.problem?.code == .tokenInvalid)
            #expect(again.problem?.detail?.contains("issued an activation code already") == true)
            var device = TestDevice()
            let registered = try await api.post("/v1/devices", try device.registration(code: try issued.decode(ActivationCodeResponse.self).activationCode))
            device.deviceID = try registered.decode(RegisteredDeviceResponse.self).deviceId
            let listed = try await api.bearer(.get, "/v1/devices", token: login).decode([DeviceResponse].self)
            #expect(listed.map(\.deviceId) == [device.deviceID])

            _ = try await api.createUser("taken@example.com")
            let change = try WireJSON.encoder().encode(SettingsChangeRequest(phone: "+33612345618"))
            #expect(try await api.bearer(.patch, "/v1/me", token: login, body: change).problem?.code == .forbidden)

            api.clock.advance(by: 30)
            let challenge = try await api.startChallenge(.settingsChange, email: "self@example.com")
            try await api.prove(challenge.challengeId, .password, "correct horse battery")
            let settings = try #require(try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now()))
                .decode(ProofResponse.self).accessToken)
            let badChange = try WireJSON.encoder().encode(SettingsChangeRequest(phone: "12"))
            #expect(try await api.bearer(.patch, "/v1/me", token: settings, body: badChange).status == 400)
            let takenEmail = try WireJSON.encoder().encode(SettingsChangeRequest(email: "taken@example.com"))
            #expect(try await api.bearer(.patch, "/v1/me", token: settings, body: takenEmail).status == 409)  // token not spent
            let changed = try await api.bearer(.patch, "/v1/me", token: settings, body: change)
            #expect(changed.status == 200)
            // The new number counts once the code sent to it comes back.
            let waiting = try changed.decode(UserResponse.self)
            #expect(waiting.phone != "+33612345618")
            #expect(waiting.pendingConfirmations?.map(\.channel) == [.phone])
            #expect(try await api.bearer(.patch, "/v1/me", token: settings, body: change).status == 401)
            let confirmation = try WireJSON.encoder().encode(
                ContactConfirmationRequest(channel: .phone, code: try api.lastCode(sentTo: "+33612345618")))
            let confirmed = try await api.bearer(.post, "/v1/me/contact-confirmations", token: login, body: confirmation)
            #expect(try confirmed.decode(UserResponse.self).phone == "+33612345618")

            let removed = try await api.bearer(.delete, "/v1/devices/\(device.deviceID)", token: login)
            #expect(try removed.decode(DeviceResponse.self).status == .removed)
        }
    }

    @Test("the device limit counts devices that are not removed")
    func deviceLimit() async throws {
        try await TestServer { $0.maxDevicesPerUser = 2 }.run { api in
            let userID = try await api.createUser("many@example.com")
            var first = TestDevice()
            try await api.activate(&first, userID: userID)
            var second = TestDevice()
            try await api.activate(&second, userID: userID)
            let code = try await api.send(.post, "/admin/v1/users/\(userID)/activations", admin: true)
                .decode(ActivationCodeResponse.self).activationCode
            let third = try await api.post("/v1/devices", try TestDevice().registration(code: code))
            #expect(third.status == 409)
            #expect(third.problem?.code == .deviceLimitReached)
            try await api.send(.delete, "/admin/v1/devices/\(first.deviceID)", admin: true)
            #expect(try await api.post("/v1/devices", try TestDevice().registration(code: code)).status == 201)
        }
    }

    /// A code with the same first group and another random remainder, with a valid CRC.
    static func codeSharingLookup(with code: String) -> String? {
        guard let original = ActivationCode(code) else { return nil }
        var bytes = Array(original.bytes.prefix(10))
        bytes[9] ^= 0xFF
        let crc = CRC16.arc(bytes)
        let text = Base32.encode(bytes + [UInt8(crc >> 8), UInt8(crc & 0xFF)])
        let grouped = stride(from: 0, to: 20, by: 5).map { start in
            String(text[text.index(text.startIndex, offsetBy: start)..<text.index(text.startIndex, offsetBy: start + 5)])
        }.joined(separator: "-")
        return ActivationCode(grouped)?.description
    }
}
