import Foundation
import SCACore
import SCAEngine

/// The factor forms of a sign-in or consent page, and what a refused proof tells the user. The
/// wording never says which factor was wrong under a deferred verdict.
enum FactorForms {
    /// The template values of one form per method the challenge still needs.
    /// - Parameter base: the path the forms post under (`/signin`, `/consents/{id}`).
    static func methods(_ challenge: ChallengeResponse, base: String, state: PageState) -> [[String: Any]] {
        let satisfied = Set(challenge.satisfiedCategories)
        // A passkey has its own section (``passkey(_:base:state:label:)``), shown by script only.
        return challenge.methods.filter { !$0.id.isDeviceSignature && $0.id != .passkey && !satisfied.contains($0.category) }
            .map { offered in
            let method = offered.id
            var values: [String: Any] = [
                "method": method.rawValue,
                "proofAction": "\(base)/proof",
                "proofCsrf": PageCookies.csrfToken(state, action: "\(base)/proof"),
                "submitLabel": "Continue",
            ]
            switch method {
            case .password:
                values["heading"] = "Your password"
                values["label"] = "Password"
                values["inputType"] = "password"
                values["autocomplete"] = "current-password"
            case .pin:
                values["heading"] = "Your PIN"
                values["label"] = "PIN"
                values["inputType"] = "password"
                values["autocomplete"] = "off"
                values["numeric"] = true
            case .totp:
                values["heading"] = "Authenticator app"
                values["label"] = "6-digit code from your authenticator app"
                values["inputType"] = "text"
                values["autocomplete"] = "one-time-code"
                values["numeric"] = true
            case .smsOTP, .emailOTP:
                let sms = method == .smsOTP
                values["heading"] = sms ? "Code by SMS" : "Code by e-mail"
                values["label"] = sms ? "6-digit code from the SMS" : "6-digit code from the e-mail"
                values["inputType"] = "text"
                values["autocomplete"] = "one-time-code"
                values["numeric"] = true
                values["sendable"] = true
                values["sendAction"] = "\(base)/send"
                values["sendCsrf"] = PageCookies.csrfToken(state, action: "\(base)/send")
                values["sendLabel"] = sms ? "Send me a code by SMS" : "Send me a code by e-mail"
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
    static let emptyFieldMessage = "Please fill in the field before you continue."

    /// "Step 1 of 2" style progress.
    static func progress(_ challenge: ChallengeResponse) -> String {
        let done = challenge.satisfiedCategories.count
        return "Step \(min(done + 1, challenge.requiredCategories)) of \(challenge.requiredCategories)"
    }

    /// What the user reads after a refused proof or send.
    /// Sends the code the form asks for (SMS unless it names another method) and leaves the
    /// outcome in `state` for the next page: where it went, or why it was not sent.
    static func sendCode(
        _ form: [String: String], challengeID: String, with challenges: ChallengeService, into state: inout PageState
    ) async throws {
        do {
            let method = AuthenticationMethod(rawValue: form["method"] ?? "") ?? .smsOTP
            let sent = try await challenges.sendCode(SendCodeRequest(method: method), for: challengeID)
            state.notice = "We sent a code to \(sent.sentTo)."
        } catch let problem as Problem where problem.status < 500 {
            state.error = message(for: problem)
        }
    }

    static func message(for problem: Problem) -> String {
        switch problem.code {
        case .proofRejected:
            let left = problem.remainingAttempts ?? 0
            return "That is not right. \(left) attempt\(left == 1 ? "" : "s") left before your access is blocked."
        case .authenticationFailed:
            let left = problem.remainingAttempts
            return "We could not confirm it is you: something you entered does not match. Please enter everything again."
                + (left.map { " \($0) attempt\($0 == 1 ? "" : "s") left before your access is blocked." } ?? "")
        case .codeAlreadyUsed: return "That code was used already. Ask for a new code."
        case .rateLimited: return "Too many codes were asked for. Please wait a moment and try again."
        case .otpResendTooSoon: return "A code was sent a moment ago. Please wait before asking for another."
        case .categoryAlreadyCollected: return "You gave this kind of proof already. Please use the other one."
        case .proofInProgress: return "We are still checking your last entry. Please try again."
        default: return "That did not work. Please check what you entered and try again."
        }
    }
}
