import Foundation
import SCACore
import SCAEngine
import Testing

/// Decoys: an unknown address typed the same way as a real one gets answers of the
/// same shape, built by the same rules: the e-mail mask follows what was typed, the SMS mask
/// has the length and shape of a real number's, the methods are the configured default profile.
@Suite("A decoy cannot be told from a plausible user")
struct DecoyIndistinguishabilityTests {
    static func challenge(_ api: APIClient, _ email: String, _ operation: OperationKind = .login) async throws -> APIResponse {
        try await api.post("/v1/challenges", CreateChallengeRequest(operation: operation, user: UserReference(email: email)))
    }

    /// `+33*******78`: the first three characters, a star per hidden digit, the last two digits.
    static func isPhoneMask(_ mask: String, prefix: String, length: Int) -> Bool {
        let characters = Array(mask)
        return mask.count == length && mask.hasPrefix(prefix)
            && characters.dropFirst(3).dropLast(2).allSatisfy { $0 == "*" }
            && characters.suffix(2).allSatisfy(\.isNumber)
    }

    @Test("challenge and code-sent answers have the same shape; masks follow the same rules")
    func sameShapeAndMasks() async throws {
        try await TestServer().run { api in
            _ = try await api.createUser("anna.real@example.com", phone: "+33612345678", emailCodes: true)
            let real = try await Self.challenge(api, " Anna.Real@Example.com ")
            let decoy = try await Self.challenge(api, " Ghost.Person@Example.ORG ")
            #expect(real.status == 201 && decoy.status == 201)
            #expect(Set(real.json.keys) == Set(decoy.json.keys))
            let realChallenge = try real.decode(ChallengeResponse.self)
            let decoyChallenge = try decoy.decode(ChallengeResponse.self)
            #expect(realChallenge.methods.map(\.id) == decoyChallenge.methods.map(\.id))
            #expect(realChallenge.verdict == decoyChallenge.verdict)
            #expect(realChallenge.requiredCategories == decoyChallenge.requiredCategories)

            let realEmail = try await api.sendCode(realChallenge.challengeId, .emailOTP)
            let decoyEmail = try await api.sendCode(decoyChallenge.challengeId, .emailOTP)
            #expect(realEmail.status == 202 && decoyEmail.status == 202)
            #expect(Set(realEmail.json.keys) == Set(decoyEmail.json.keys))
            // The same rule on what was typed (normalized): first letter, four stars, the domain.
            #expect(try realEmail.decode(CodeSentResponse.self).sentTo == "a****@example.com")
            #expect(try decoyEmail.decode(CodeSentResponse.self).sentTo == "g****@example.org")
            #expect(try realEmail.decode(CodeSentResponse.self).resendAfter == decoyEmail.decode(CodeSentResponse.self).resendAfter)

            let realSMS = try await api.sendCode(realChallenge.challengeId, .smsOTP)
            let decoySMS = try await api.sendCode(decoyChallenge.challengeId, .smsOTP)
            #expect(realSMS.status == 202 && decoySMS.status == 202)
            let realMask = try realSMS.decode(CodeSentResponse.self).sentTo
            let decoyMask = try decoySMS.decode(CodeSentResponse.self).sentTo
            #expect(realMask == "+33*******78")
            #expect(Self.isPhoneMask(decoyMask, prefix: "+33", length: realMask.count), "decoy mask \(decoyMask)")
            // Only the real user's codes went out.
            #expect(try api.outbox().map(\.to).sorted() == ["+33612345678", "anna.real@example.com"])
        }
    }

    @Test("repeated decoys for one address agree; another address gets its own number")
    func decoyMasksAreStable() async throws {
        try await TestServer().run { api in
            var masks: [String: Set<String>] = [:]
            for email in ["one@example.com", "two@example.com", "three@example.com", "four@example.com"] {
                for _ in 0..<2 {
                    let challenge = try await Self.challenge(api, email).decode(ChallengeResponse.self)
                    let sent = try await api.sendCode(challenge.challengeId, .smsOTP)
                    masks[email, default: []].insert(try sent.decode(CodeSentResponse.self).sentTo)
                }
            }
            #expect(masks.values.allSatisfy { $0.count == 1 }, "the same address, the same mask")
            #expect(Set(masks.values.flatMap { $0 }).count > 1, "derived from the address, not fixed")
            #expect(masks.values.flatMap { $0 }.allSatisfy { Self.isPhoneMask($0, prefix: "+33", length: 12) })
        }
    }

    @Test("the decoy number follows the configured pattern")
    func configuredPhonePattern() async throws {
        try await TestServer { $0.decoyPhonePattern = "+4915#########" }.run { api in
            _ = try await api.createUser("berlin@example.com", phone: "+4915112345678")
            let real = try await Self.challenge(api, "berlin@example.com").decode(ChallengeResponse.self)
            let decoy = try await Self.challenge(api, "munich@example.com").decode(ChallengeResponse.self)
            let realMask = try await api.sendCode(real.challengeId, .smsOTP).decode(CodeSentResponse.self).sentTo
            let decoyMask = try await api.sendCode(decoy.challengeId, .smsOTP).decode(CodeSentResponse.self).sentTo
            #expect(realMask == "+49*********78")
            #expect(Self.isPhoneMask(decoyMask, prefix: "+49", length: realMask.count), "decoy mask \(decoyMask)")
        }
    }

    @Test("a decoy offers the configured default profile, filtered by the operation's policy like a real user's")
    func decoyMethodsFollowTheProfileAndPolicy() async throws {
        try await TestServer {
            $0.decoyMethods = [.password, .totp, .emailOTP]
            $0.policies[.payment] = OperationPolicy(methods: [.pin, .totp, .password])
        }.run { api in
            let userID = try await api.createUser("profile@example.com", emailCodes: true)
            _ = try await api.enrollTOTP(userID)
            let transaction = Transaction(amount: "10.00", currency: "EUR", payee: .init(name: "Shop"))
            for (operation, expected) in [(OperationKind.login, [AuthenticationMethod.password, .totp, .emailOTP]), (.payment, [.totp, .password])] {
                var lists: [[AuthenticationMethod]] = []
                for email in ["profile@example.com", "unknown@example.com"] {
                    let response = try await api.post(
                        "/v1/challenges",
                        CreateChallengeRequest(
                            operation: operation, user: UserReference(email: email),
                            transaction: operation == .payment ? transaction : nil))
                    #expect(response.status == 201)
                    lists.append(try response.decode(ChallengeResponse.self).methods.map(\.id))
                }
                #expect(Set(lists[0]) == Set(expected), "\(operation)")
                #expect(lists[0] == lists[1], "\(operation): a decoy lists what a user with the profile gets")
            }
        }
    }
}
