import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SCACore
@testable import SCAEngine
import SCALocalization
import Testing

/// Problem documents in the reader's language: with `Accept-Language`, `title` and `detail` in
/// the language asked for where the catalogue has both, English whole otherwise; the `code`
/// and every other field the same in every language.
@Suite("Problems in the reader's language")
struct LocalizedProblemTests {
    /// A proof with `Accept-Language` (none when nil).
    static func prove(
        _ api: APIClient, _ challengeID: String, _ credential: String, acceptLanguage: String?
    ) async throws -> APIResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let acceptLanguage { headers[.acceptLanguage] = acceptLanguage }
        let body = try WireJSON.encoder().encode(ProofRequest(method: .password, credential: credential))
        let response = try await api.client.execute(
            uri: "/v1/challenges/\(challengeID)/proofs", method: .post, headers: headers, body: ByteBuffer(bytes: body))
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    }

    @Test("with Accept-Language: de a problem is German, says so and varies on the header; without it, English as ever")
    func germanWithTheHeaderEnglishWithout() async throws {
        try await TestServer { $0.policies[.login] = OperationPolicy(verdict: .immediate) }.run { api in
            _ = try await api.createUser("sprache@example.com")
            let challenge = try await api.startChallenge(email: "sprache@example.com")

            let english = try await Self.prove(api, challenge.challengeId, "wrong password!", acceptLanguage: nil)
            #expect(english.status == 401)
            #expect(english.problem?.title == "Proof rejected")
            #expect(english.headers[.contentLanguage] == nil)
            #expect(english.headers[.vary] == nil)

            let german = try await Self.prove(api, challenge.challengeId, "wrong password!", acceptLanguage: "de-DE, en;q=0.5")
            #expect(german.status == 401)
            #expect(german.headers[.contentType] == "application/problem+json")
            #expect(german.headers[.contentLanguage] == "de")
            #expect(german.headers[.vary] == "Accept-Language")
            let problem = try #require(german.problem)
            #expect(problem.title == "Nachweis abgelehnt")
            #expect(problem.code == .proofRejected)
            #expect(problem.type == "urn:sca:problem:sca.proof_rejected")
            #expect(problem.remainingAttempts == english.problem?.remainingAttempts.map { $0 - 1 })

            // Blocked: title and detail in French (the best shipped language the header accepts).
            for _ in 0..<3 { try await Self.prove(api, challenge.challengeId, "wrong password!", acceptLanguage: nil) }
            let locked = try await Self.prove(api, challenge.challengeId, "wrong password!", acceptLanguage: "ja, fr;q=0.8, de;q=0.2")
            #expect(locked.status == 423)
            #expect(locked.headers[.contentLanguage] == "fr")
            #expect(locked.headers[.retryAfter] != nil)
            let blocked = try #require(locked.problem)
            #expect(blocked.code == .userLocked)
            #expect(blocked.title == "Compte bloqué")
            #expect(blocked.detail == "Trop de tentatives ont échoué\u{202F}; veuillez réessayer plus tard.")
            #expect(blocked.retryAfter != nil && blocked.remainingAttempts == 0)
            let lockedInEnglish = try await Self.prove(api, challenge.challengeId, "wrong password!", acceptLanguage: nil)
            #expect(lockedInEnglish.problem?.detail == "Too many failed attempts; try again later.")

            // A problem the catalogue does not word stays English, and says so.
            let invalid = try await api.client.execute(
                uri: "/v1/challenges", method: .post,
                headers: [.contentType: "application/json", .acceptLanguage: "de"], body: ByteBuffer(string: "{\"operation\":42}"))
            #expect(invalid.status == .badRequest)
            #expect(invalid.headers[.contentLanguage] == "en")
            #expect(invalid.headers[.vary] == "Accept-Language")
            #expect(try WireJSON.decoder().decode(Problem.self, from: Data(buffer: invalid.body)).title == "Invalid request")

            // A header naming no shipped language: English.
            let unknown = try await Self.prove(api, challenge.challengeId, "wrong password!", acceptLanguage: "ja-JP")
            #expect(unknown.problem?.title == "User locked")
            #expect(unknown.headers[.contentLanguage] == "en")
        }
    }

    /// The engine's problems that the catalogue words, one of each wording.
    static let worded: [Problem] = [
        .authenticationFailed(remaining: 2), .proofRejected(remaining: 2), .userLocked(until: nil, now: Date()),
        .userLocked(until: Date().addingTimeInterval(60), now: Date()), .attemptsInProgress, .resendTooSoon(retryAfter: 30),
        .sendLimit, .sessionExpired, .challengeClosed(.completed), .challengeClosed(.cancelled), .challengeClosed(.failed),
        .challengeClosed(.expired), .activationCodeInvalid(remaining: 2), .deviceLimitReached, .deviceUnusable(.removed),
        .deviceUnusable(.blocked), .rateLimited(retryAfter: 5), .proofInProgress, .codeAlreadyUsed, .riskRefused,
        .beneficiaryLimitReached, .passkeyInvalid, .passkeyLimitReached, .contention, .passwordHashingBusy, .serverUnavailable,
        .recoveryFailed(remaining: 2), .recoverySheetUsedUp, .recoveryLocked(until: nil, now: Date()),
        .recoveryLocked(until: Date().addingTimeInterval(60), now: Date()), .recoverySheetNotFound, .userRestricted,
    ]

    @Test("every problem the catalogue words is one the engine answers, word for word in English, and each is translated whole")
    func catalogueWordsTheEnginesProblems() throws {
        let catalogue = try Catalogue.bundled()
        let english = (catalogue.entries[.english] ?? [:]).filter { $0.key.hasPrefix("problem.") }
        let said = Set(Self.worded.flatMap { [$0.title, $0.detail].compactMap { $0 } })
        for (key, _) in english {
            #expect(said.contains(catalogue.text(key, in: .english)), "\(key) words no problem the engine answers")
        }
        for problem in Self.worded {
            for language in Language.allCases where language != .english {
                let localized = try #require(problem.localized(in: language, catalogue: catalogue), "\(problem.code) in \(language)")
                #expect(localized.title != problem.title, "\(problem.code) in \(language)")
                #expect((localized.detail == nil) == (problem.detail == nil))
                #expect(localized.code == problem.code && localized.type == problem.type && localized.status == problem.status)
                #expect(localized.retryAfter == problem.retryAfter && localized.remainingAttempts == problem.remainingAttempts)
            }
            #expect(problem.localized(in: .english, catalogue: catalogue) == nil, "English is left as it is")
        }
    }

    @Test("a problem whose title or detail the catalogue lacks stays English whole")
    func neverAMix() throws {
        let catalogue = try Catalogue.bundled()
        // The title is worded, this detail is not.
        #expect(Problem.tooManyRequestsFromAddress.localized(in: .german, catalogue: catalogue) == nil)
        #expect(Problem.clientThrottled(retryAfter: 3).localized(in: .german, catalogue: catalogue) == nil)
        // The detail names a field: no catalogue sentence says it.
        #expect(Problem.invalidRequest("locale must be a BCP 47 language tag").localized(in: .french, catalogue: catalogue) == nil)
        // The same code, other words than the catalogue's English.
        #expect(Problem(status: 503, code: .serverBusy, title: "Database unreachable").localized(in: .dutch, catalogue: catalogue) == nil)
        // A language whose file lacks the entry: no English stands in for it.
        var partial = catalogue.entries
        partial[.italian]?["problem.user.locked.detail.temporary"] = nil
        let locked = Problem.userLocked(until: Date().addingTimeInterval(60), now: Date())
        #expect(locked.localized(in: .italian, catalogue: Catalogue(entries: partial)) == nil)
        #expect(locked.localized(in: .italian, catalogue: catalogue) != nil)
    }
}
