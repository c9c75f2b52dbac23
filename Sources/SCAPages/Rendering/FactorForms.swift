import Foundation
import SCACore
import SCAEngine

/// The factor forms of a sign-in or consent page, and what a refused proof tells the user. The
/// wording never says which factor was wrong under a deferred verdict.
enum FactorForms {
    /// The template values of one form per method the challenge still needs.
    /// - Parameter base: the path the forms post under (`/signin`, `/consents/{id}`).
    static func methods(_ challenge: ChallengeResponse, base: String, state: PageState, words: PageWords) -> [[String: Any]] {
        let satisfied = Set(challenge.satisfiedCategories)
        // A passkey has its own section (``passkey(_:base:state:label:)``), shown by script only.
        return challenge.methods.filter { !$0.id.isDeviceSignature && $0.id != .passkey && !satisfied.contains($0.category) }
            .map { offered in
            let method = offered.id
            var values: [String: Any] = [
                "method": method.rawValue,
                "proofAction": "\(base)/proof",
                "proofCsrf": PageCookies.csrfToken(state, action: "\(base)/proof"),
            ]
            switch method {
            case .password:
                values["heading"] = words.text("factor.password.heading")
                values["label"] = words.text("factor.password.label")
                values["inputType"] = "password"
                values["autocomplete"] = "current-password"
            case .pin:
                values["heading"] = words.text("factor.pin.heading")
                values["label"] = words.text("factor.pin.label")
                values["inputType"] = "password"
                values["autocomplete"] = "off"
                values["numeric"] = true
            case .totp:
                values["heading"] = words.text("factor.totp.heading")
                values["label"] = words.text("factor.totp.label")
                values["inputType"] = "text"
                values["autocomplete"] = "one-time-code"
                values["numeric"] = true
            case .smsOTP, .emailOTP:
                let sms = method == .smsOTP
                values["heading"] = words.text(sms ? "factor.sms.heading" : "factor.email.heading")
                values["label"] = words.text(sms ? "factor.sms.label" : "factor.email.label")
                values["inputType"] = "text"
                values["autocomplete"] = "one-time-code"
                values["numeric"] = true
                values["sendable"] = true
                values["sendAction"] = "\(base)/send"
                values["sendCsrf"] = PageCookies.csrfToken(state, action: "\(base)/send")
                values["sendLabel"] = words.text(sms ? "factor.sms.send" : "factor.email.send")
            case .deviceKey, .biometricKey, .passkey, .passkeyUserVerified:
                break
            }
            return values
        }
    }

    /// The template values of the passkey section, when the challenge offers one and still
    /// needs possession: the request options (as JSON, for /hosted/passkey.js) and a form that
    /// posts the assertion to the same proof route as the typed factors.
    static func passkey(_ challenge: ChallengeResponse, base: String, state: PageState, label: String) -> [String: Any]? {
        guard let options = challenge.passkey, !challenge.satisfiedCategories.contains(.possession),
            let json = try? WireJSON.encode(options)
        else { return nil }
        return [
            "options": String(decoding: json, as: UTF8.self), "proofAction": "\(base)/proof",
            "proofCsrf": PageCookies.csrfToken(state, action: "\(base)/proof"), "label": label,
        ]
    }

    /// The proof a factor form posted: a typed credential, or a passkey's assertion (JSON in
    /// the `assertion` field). Nil when the field is empty or the assertion does not decode.
    static func proof(in form: [String: String]) -> ProofRequest? {
        guard let method = AuthenticationMethod(rawValue: form["method"] ?? "") else { return nil }
        if method == .passkey {
            guard let text = form["assertion"], !text.isEmpty,
                let assertion = try? WireJSON.sharedDecoder.decode(PasskeyAssertionCredential.self, from: Data(text.utf8))
            else { return nil }
            return ProofRequest(method: .passkey, assertion: assertion)
        }
        guard let credential = form["credential"], !credential.isEmpty else { return nil }
        return ProofRequest(method: method, credential: credential)
    }

    /// What the page says when a factor form came without its value.
    static let emptyFieldMessage = PageText("factor.error.emptyField")

    /// "Step 1 of 2" style progress.
    static func progress(_ challenge: ChallengeResponse, words: PageWords) -> String {
        let done = challenge.satisfiedCategories.count
        return words.text(
            "factor.progress",
            ["step": String(min(done + 1, challenge.requiredCategories)), "total": String(challenge.requiredCategories)])
    }

    /// Sends the code the form asks for (SMS unless it names another method) and leaves the
    /// outcome in `state` for the next page: where it went, or why it was not sent.
    static func sendCode(
        _ form: [String: String], challengeID: String, with challenges: ChallengeService, into state: inout PageState
    ) async throws {
        try await sendCode(form, into: &state) { try await challenges.sendCode($0, for: challengeID) }
    }

    /// As ``sendCode(_:challengeID:with:into:)``, through `send`.
    static func sendCode(
        _ form: [String: String], into state: inout PageState, send: (SendCodeRequest) async throws -> CodeSentResponse
    ) async throws {
        do {
            let method = AuthenticationMethod(rawValue: form["method"] ?? "") ?? .smsOTP
            let sent = try await send(SendCodeRequest(method: method))
            state.notice = PageText("factor.codeSent", ["destination": sent.sentTo])
        } catch let problem as Problem where problem.status < 500 {
            state.error = message(for: problem)
        }
    }

    /// Opens a first-party sign-in's challenge for the page that leaves it in `state`: by the
    /// e-mail typed (kept for the next page), or with a discoverable passkey when `email` is
    /// nil. A refusal is said in `state`: a budget's own words, else that the address or the
    /// passkey sign-in could not be used.
    static func startSignIn(
        email: String?, into state: inout PageState, start: () async throws -> ChallengeResponse
    ) async throws {
        state.email = email
        do {
            state.challengeID = try await start().challengeId
        } catch let problem as Problem where problem.status < 500 {
            state.error = problem.code == .rateLimited
                ? message(for: problem) : PageText(email == nil ? "signin.error.passkeyUnavailable" : "signin.error.invalidEmail")
        }
    }

    /// What a refused proof leaves in a sign-in's `state`: a challenge that ended sends the
    /// visit back to its start, saying so; any other refusal is said on the form.
    /// - Returns: true when the user is blocked: the caller answers with its own blocked page,
    ///   and `state` is left as it was.
    static func refusedProof(_ problem: Problem, into state: inout PageState) -> Bool {
        switch problem.code {
        case .userLocked:
            return true
        case .challengeExpired, .challengeCompleted, .challengeCancelled, .challengeFailed:
            state.challengeID = nil
            state.error = PageText("signin.error.tooLong")
        default:
            state.error = message(for: problem)
        }
        return false
    }

    /// What the user reads after a refused proof or send.
    static func message(for problem: Problem) -> PageText {
        // Said after the sentence, not inside it, so no language has to fit a number into it.
        let attemptsLeft = problem.remainingAttempts.map { [PageText("factor.error.attemptsLeft", count: $0)] } ?? []
        switch problem.code {
        case .proofRejected: return PageText("factor.error.proofRejected", then: attemptsLeft)
        case .authenticationFailed: return PageText("factor.error.authenticationFailed", then: attemptsLeft)
        case .codeAlreadyUsed: return PageText("factor.error.codeAlreadyUsed")
        case .rateLimited: return PageText("factor.error.rateLimited")
        case .otpResendTooSoon: return PageText("factor.error.resendTooSoon")
        case .categoryAlreadyCollected: return PageText("factor.error.categoryAlreadyCollected")
        case .proofInProgress: return PageText("factor.error.proofInProgress")
        default: return PageText("factor.error.other")
        }
    }
}
