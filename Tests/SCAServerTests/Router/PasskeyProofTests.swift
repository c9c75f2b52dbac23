import Crypto
import Foundation
import SCACore
import SCAEngine
import SCAStorage
import SCATestSupport
import Testing

/// A passkey as a challenge's proof, through the real routes with a software
/// authenticator: the assertion is bound to the challenge (and a payment's amount and payee),
/// a user-verified one proves two categories, and it is counted, locked and replayed like
/// every other proof.
@Suite("Passkey proofs")
struct PasskeyProofTests {
    typealias Registration = PasskeyRegistrationTests

    static func immediate(_ configuration: inout ServerConfiguration) {
        Registration.configure(&configuration)
        configuration.policies[.login] = OperationPolicy(verdict: .immediate)
    }

    static func prove(_ api: APIClient, _ challengeID: String, _ assertion: PasskeyAssertionCredential) async throws -> APIResponse {
        try await api.post("/v1/challenges/\(challengeID)/proofs", ProofRequest(method: .passkey, assertion: assertion))
    }

    /// The WebAuthn challenge a browser is given for `challenge`.
    static func options(_ challenge: ChallengeResponse) throws -> PasskeyRequestOptions {
        try #require(challenge.passkey)
    }

    func auditEvents(_ api: APIClient, _ event: String) async throws -> [AuditEntryDraft] {
        try await api.services.store.auditEntries(after: 0, limit: 1_000).map(\.draft).filter { $0.event == event }
    }

    @Test("a user-verified passkey alone completes a login: possession and inherence, amr passkey and passkey_uv")
    func loginWithOnePasskeyProof() async throws {
        try await TestServer(Registration.configure).run { api in
            let authenticator = SoftwarePasskey()
            let (userID, _, passkeyID) = try await Registration.enrolled(api, "pk@example.com", authenticator)
            let challenge = try await api.startChallenge(email: "pk@example.com")
            #expect(challenge.methods.contains(OfferedMethod(.passkey)))
            let options = try Self.options(challenge)
            #expect(options.rpId == "localhost")
            #expect(options.allowCredentials.map(\.id) == [authenticator.credentialIDText])
            #expect(options.userVerification == "preferred")
            #expect(options.timeout == api.services.configuration.challengeLifetime * 1_000)
            // Derived from the challenge, so nothing is stored for it: the same on every read.
            let payload = DeviceSignature.payload(
                method: .passkey, challengeID: challenge.challengeId, nonce: challenge.nonce, operation: .login,
                transactionDigest: nil)
            #expect(options.challenge == Base64URL.encode(Array(SHA256.hash(data: payload))))
            #expect(try await api.send(.get, "/v1/challenges/\(challenge.challengeId)").decode(ChallengeResponse.self).passkey == options)

            let assertion = authenticator.assert(challenge: options.challenge)
            let done = try await Self.prove(api, challenge.challengeId, assertion)
            #expect(done.status == 200, "\(String(decoding: done.body, as: UTF8.self))")
            let tokens = try done.decode(ProofResponse.self)
            #expect(tokens.status == .complete)
            #expect(tokens.satisfiedCategories == [.possession, .inherence])
            #expect(tokens.amr == [.passkey, .passkeyUserVerified])
            let introspected = try await api.introspect(try #require(tokens.accessToken))
            #expect(introspected.active && introspected.sub == userID && introspected.amr == [.passkey, .passkeyUserVerified])
            // Two categories from one assertion: strong customer authentication, not single-factor.
            #expect(tokens.acr == TokenResponse.scaACR && introspected.acr == TokenResponse.scaACR)
            let stored = try #require(try await api.services.store.passkey(id: passkeyID))
            #expect(stored.signCount == 2 && stored.lastUsedAt != nil)
            // The same assertion again: the challenge is closed, and no other challenge takes it.
            #expect(try await Self.prove(api, challenge.challengeId, assertion).status == 409)
            let other = try await api.startChallenge(email: "pk@example.com")
            let replayed = try await Self.prove(api, other.challengeId, assertion)
            #expect(replayed.status == 401)
            #expect(replayed.problem?.code == .authenticationFailed)
            let accepted = try await auditEvents(api, "proof.accepted").filter { $0.details["method"] == "passkey" }
            #expect(accepted.first?.details["passkey"] == passkeyID)
        }
    }

    @Test("a payment assertion is bound to amount and payee: one made for another payment is refused")
    func paymentIsDynamicallyLinked() async throws {
        try await TestServer(Registration.configure).run { api in
            let authenticator = SoftwarePasskey()
            _ = try await Registration.enrolled(api, "pay@example.com", authenticator)
            let payee = Transaction.Payee(name: "Café Müller", iban: "DE89370400440532013000")
            let small = try await api.startChallenge(
                .payment, email: "pay@example.com", transaction: Transaction(amount: "25.00", currency: "EUR", payee: payee))
            let large = try await api.startChallenge(
                .payment, email: "pay@example.com", transaction: Transaction(amount: "250.00", currency: "EUR", payee: payee))
            let smallOptions = try Self.options(small)
            #expect(smallOptions.challenge != (try Self.options(large)).challenge)

            // What the user approved for 25.00 does not approve 250.00.
            let refused = try await Self.prove(api, large.challengeId, authenticator.assert(challenge: smallOptions.challenge))
            #expect(refused.status == 401)
            #expect(refused.problem?.code == .authenticationFailed)
            let rejected = try await auditEvents(api, "proof.rejected").last
            #expect(rejected?.details["reason"] == "challengeMismatch")

            let done = try await Self.prove(api, small.challengeId, authenticator.assert(challenge: smallOptions.challenge))
            #expect(done.status == 200)
            let token = try #require(try done.decode(ProofResponse.self).accessToken)
            let introspected = try await api.introspect(
                token, operation: .payment, transaction: Transaction(amount: "25.00", currency: "EUR", payee: payee))
            #expect(introspected.active)
            #expect(introspected.txn == small.transactionDigest)
        }
    }

    @Test("without user verification a passkey proves possession only, and a second factor completes")
    func noUserVerificationIsPossessionOnly() async throws {
        try await TestServer(Registration.configure).run { api in
            let authenticator = SoftwarePasskey()
            _ = try await Registration.enrolled(api, "nouv@example.com", authenticator)
            let challenge = try await api.startChallenge(email: "nouv@example.com")
            let partial = try await Self.prove(
                api, challenge.challengeId, authenticator.assert(challenge: try Self.options(challenge).challenge, userVerified: false))
            #expect(partial.status == 200)
            let progress = try partial.decode(ProofResponse.self)
            #expect(progress.status == .partial && progress.satisfiedCategories == [.possession] && progress.remainingCategories == 1)
            let done = try await api.prove(challenge.challengeId, .password, "correct horse battery")
            #expect(done.status == 200)
            #expect(try done.decode(ProofResponse.self).amr == [.passkey, .password])
        }
        // Where user verification is required, an assertion without it is a wrong proof.
        try await TestServer({ Self.immediate(&$0); $0.webauthnUserVerification = .required }).run { api in
            let authenticator = SoftwarePasskey()
            _ = try await Registration.enrolled(api, "uvreq@example.com", authenticator)
            let challenge = try await api.startChallenge(email: "uvreq@example.com")
            #expect(try Self.options(challenge).userVerification == "required")
            let refused = try await Self.prove(
                api, challenge.challengeId, authenticator.assert(challenge: try Self.options(challenge).challenge, userVerified: false))
            #expect(refused.status == 401)
            #expect(refused.problem?.code == .proofRejected)
        }
    }

    @Test("webauthn.userVerifiedCategory knowledge: a user-verified passkey proves possession and knowledge")
    func userVerifiedAsKnowledge() async throws {
        try await TestServer({ Registration.configure(&$0); $0.webauthnUserVerifiedCategory = .knowledge }).run { api in
            let authenticator = SoftwarePasskey()
            _ = try await Registration.enrolled(api, "pin@example.com", authenticator)
            let challenge = try await api.startChallenge(email: "pin@example.com")
            let done = try await Self.prove(api, challenge.challengeId, authenticator.assert(challenge: try Self.options(challenge).challenge))
            #expect(try done.decode(ProofResponse.self).satisfiedCategories == [.knowledge, .possession])
        }
    }

    @Test("a counter that goes backwards marks the passkey suspect, refuses, audits, and it is offered no more")
    func counterRegressionMarksSuspect() async throws {
        try await TestServer(Self.immediate).run { api in
            let authenticator = SoftwarePasskey()
            let (userID, _, passkeyID) = try await Registration.enrolled(api, "clone@example.com", authenticator)
            let first = try await api.startChallenge(email: "clone@example.com")
            #expect(try await Self.prove(api, first.challengeId, authenticator.assert(challenge: try Self.options(first).challenge)).status == 200)
            // A clone signs with the counter it copied.
            authenticator.signCount = 2
            let second = try await api.startChallenge(email: "clone@example.com")
            let refused = try await Self.prove(api, second.challengeId, authenticator.assert(challenge: try Self.options(second).challenge))
            #expect(refused.status == 401)
            #expect(refused.problem?.code == .proofRejected)
            #expect(try await api.services.store.passkey(id: passkeyID)?.status == .suspect)
            let suspect = try await auditEvents(api, "passkey.suspect")
            #expect(suspect.count == 1 && suspect.first?.userID == userID && suspect.first?.details["passkey"] == passkeyID)
            #expect(suspect.first?.details["receivedSignCount"] == "2")
            // A suspect passkey is not offered, and an assertion by it is refused.
            let third = try await api.startChallenge(email: "clone@example.com")
            #expect(!third.methods.contains(OfferedMethod(.passkey)) && third.passkey == nil)
            #expect(try await Self.prove(api, third.challengeId, authenticator.assert(challenge: "AAAA")).problem?.code == .methodNotOffered)
        }
    }

    @Test("the same assertion presented twice is a replay: refused, not counted, the passkey not marked suspect")
    func replayIsRefusedUncounted() async throws {
        try await TestServer(Self.immediate).run { api in
            let authenticator = SoftwarePasskey()
            let (userID, _, passkeyID) = try await Registration.enrolled(api, "replay@example.com", authenticator)
            let challenge = try await api.startChallenge(email: "replay@example.com")
            let assertion = authenticator.assert(challenge: try Self.options(challenge).challenge, userVerified: false)
            #expect(try await Self.prove(api, challenge.challengeId, assertion).status == 200)
            let again = try await Self.prove(api, challenge.challengeId, assertion)
            #expect(again.status == 409)
            #expect(again.problem?.code == .codeAlreadyUsed)
            #expect(try await api.services.store.passkey(id: passkeyID)?.status == .active)
            #expect(try await api.services.users.find(userID)?.lockout.failedAttempts == 0)
        }
    }

    @Test("5 wrong assertions lock the user like any other wrong proof")
    func wrongAssertionsLock() async throws {
        try await TestServer(Self.immediate).run { api in
            let authenticator = SoftwarePasskey()
            _ = try await Registration.enrolled(api, "lock@example.com", authenticator)
            let challenge = try await api.startChallenge(email: "lock@example.com")
            let elsewhere = try await api.startChallenge(email: "lock@example.com")
            for expected in stride(from: 4, through: 0, by: -1) {
                // Signed for another challenge: a wrong proof here.
                let wrong = try await Self.prove(
                    api, challenge.challengeId, authenticator.assert(challenge: try Self.options(elsewhere).challenge))
                #expect(wrong.status == 401)
                #expect(wrong.problem?.remainingAttempts == expected)
            }
            let locked = try await Self.prove(api, challenge.challengeId, authenticator.assert(challenge: try Self.options(challenge).challenge))
            #expect(locked.status == 423)
            #expect(locked.problem?.code == .userLocked)
        }
    }

    @Test("20 parallel submissions of one assertion complete the challenge once")
    func parallelSubmissionsCompleteOnce() async throws {
        try await TestServer(Registration.configure).run { api in
            let authenticator = SoftwarePasskey()
            _ = try await Registration.enrolled(api, "burst@example.com", authenticator)
            let challenge = try await api.startChallenge(email: "burst@example.com")
            let assertion = authenticator.assert(challenge: try Self.options(challenge).challenge)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await Self.prove(api, challenge.challengeId, assertion).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1)
            #expect(statuses.allSatisfy { [200, 409].contains($0) }, "\(statuses)")
            let completed = try await auditEvents(api, "challenge.completed").filter { $0.challengeID == challenge.challengeId }
            #expect(completed.count == 1)
        }
    }

    @Test("passkey_uv is never a method a proof can name, and a malformed assertion is a bad request")
    func malformedProofs() async throws {
        try await TestServer(Registration.configure).run { api in
            let authenticator = SoftwarePasskey()
            let (userID, _, _) = try await Registration.enrolled(api, "shape@example.com", authenticator)
            let challenge = try await api.startChallenge(email: "shape@example.com")
            let marker = try await api.post(
                "/v1/challenges/\(challenge.challengeId)/proofs",
                ProofRequest(method: .passkeyUserVerified, assertion: authenticator.assert(challenge: try Self.options(challenge).challenge)))
            #expect(marker.status == 422)
            #expect(marker.problem?.code == .methodNotOffered)
            let missing = try await api.post("/v1/challenges/\(challenge.challengeId)/proofs", ProofRequest(method: .passkey))
            #expect(missing.status == 400)
            #expect(missing.problem?.code == .requestInvalid)
            var mangled = authenticator.assert(challenge: try Self.options(challenge).challenge)
            mangled.response.signature = "not base64url!"
            #expect(try await Self.prove(api, challenge.challengeId, mangled).status == 400)
            #expect(try await api.services.users.find(userID)?.lockout.failedAttempts == 0)
        }
    }

    // MARK: Discoverable login

    static func discoverable(_ api: APIClient) async throws -> APIResponse {
        try await api.post(
            "/v1/challenges", CreateChallengeRequest(operation: .login, user: UserReference(), methodHint: .passkey))
    }

    @Test("a discoverable login needs no e-mail: the assertion's user handle names the user")
    func discoverableLogin() async throws {
        try await TestServer(Registration.configure).run { api in
            let authenticator = SoftwarePasskey()
            let (userID, _, _) = try await Registration.enrolled(api, "resident@example.com", authenticator)
            let created = try await Self.discoverable(api)
            #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
            let challenge = try created.decode(ChallengeResponse.self)
            #expect(challenge.methods == [OfferedMethod(.passkey)])
            let options = try Self.options(challenge)
            #expect(options.allowCredentials.isEmpty && options.userVerification == "required")

            // Without user verification the one proof cannot prove two categories: refused.
            let noUV = try await Self.prove(api, challenge.challengeId, authenticator.assert(challenge: options.challenge, userVerified: false))
            #expect(noUV.status == 401)

            let done = try await Self.prove(api, challenge.challengeId, authenticator.assert(challenge: options.challenge))
            #expect(done.status == 200, "\(String(decoding: done.body, as: UTF8.self))")
            let token = try #require(try done.decode(ProofResponse.self).accessToken)
            #expect(try await api.introspect(token).sub == userID)
            #expect(try await api.services.store.challenge(id: challenge.challengeId)?.userID == userID)
        }
    }

    @Test("a discoverable login answers an unknown credential or user handle as a wrong proof")
    func discoverableUnknownCredential() async throws {
        try await TestServer(Registration.configure).run { api in
            let authenticator = SoftwarePasskey()
            _ = try await Registration.enrolled(api, "resident@example.com", authenticator)
            let challenge = try await Self.discoverable(api).decode(ChallengeResponse.self)
            let options = try Self.options(challenge)

            let originalHandle = authenticator.userHandle
            let stranger = SoftwarePasskey()
            stranger.userHandle = Array(repeating: 7, count: 32)
            let unknown = try await Self.prove(api, challenge.challengeId, stranger.assert(challenge: options.challenge))
            // A known credential whose handle is not its owner's.
            authenticator.userHandle = Array(repeating: 9, count: 32)
            let wrongHandle = try await Self.prove(api, challenge.challengeId, authenticator.assert(challenge: options.challenge))
            // A known credential with its owner's handle, signing something else.
            authenticator.userHandle = originalHandle
            let other = try await Self.discoverable(api).decode(ChallengeResponse.self)
            let known = try await Self.prove(api, challenge.challengeId, authenticator.assert(challenge: try Self.options(other).challenge))
            for refused in [unknown, wrongHandle, known] {
                #expect(refused.status == 401)
                #expect(refused.problem?.code == .authenticationFailed)
            }
            #expect(try await api.services.store.challenge(id: challenge.challengeId)?.userID == nil)
        }
    }

    @Test("a challenge without a user is only for a passkey login, on a server with passkeys")
    func discoverableRefusals() async throws {
        try await TestServer(Registration.configure).run { api in
            let payment = try await api.post(
                "/v1/challenges", CreateChallengeRequest(operation: .payment, user: UserReference(), methodHint: .passkey))
            #expect(payment.status == 400)
            let noHint = try await api.post("/v1/challenges", CreateChallengeRequest(operation: .login, user: UserReference()))
            #expect(noHint.status == 400)
        }
        // Without passkeys at all, as on every passkey route of such a server.
        try await TestServer().run { api in
            let off = try await Self.discoverable(api)
            #expect(off.status == 404)
            #expect(off.problem?.code == .passkeyUnavailable)
        }
        // Passkeys on, but the login policy does not offer them.
        try await TestServer {
            Registration.configure(&$0)
            $0.policies[.login] = OperationPolicy(methods: [.password, .totp])
        }.run { api in
            let notOffered = try await Self.discoverable(api)
            #expect(notOffered.status == 422)
            #expect(notOffered.problem?.code == .methodNotOffered)
        }
    }
}
