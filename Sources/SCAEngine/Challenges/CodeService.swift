import Foundation
import Logging
import SCACore
import SCAStorage

/// SMS and e-mail one-time codes: 6 CSPRNG digits, stored as a keyed hash bound to the
/// challenge (and the transaction), single use, limited in lifetime, resends and sends.
struct CodeService: EngineService, Sendable {
    let context: EngineContext
    /// Every message goes through it, delivered in the background.
    let messages: MessageDispatcher
    /// The budgets across challenges.
    let limiter: RateLimiter

    /// - Parameter user: nil for a decoy challenge: the code is stored (so resend limits answer
    ///   the same) and the budgets are drawn from, keyed by what was typed, but nothing is sent.
    /// - Throws: `Problem` 429 `otp.resend_too_soon` / `otp.send_limit` / `rate.limited`. (A
    ///   gateway's failure is not one: delivery happens after the answer.)
    func send(_ method: AuthenticationMethod, for challenge: ChallengeRecord, to user: UserRecord?) async throws -> CodeSentResponse {
        let channel: OutboundMessage.Channel = method == .smsOTP ? .sms : .email
        var address: String? = method == .smsOTP ? user?.phone : user?.email
        // A sign-up challenge has no user yet: its code goes to the address typed.
        if user == nil, method == .emailOTP { address = challenge.decoy?.signUpAddress }
        if user == nil, method == .smsOTP { address = challenge.decoy?.signUpPhone }
        if user != nil && address == nil { throw Problem.methodNotOffered(method) }
        // A known user whose code cannot count behind a sign-up-or-in decoy: a
        // notice goes where the code would, by the same path and budgets; the code stays unsent.
        var notice: String?
        if user == nil, address == nil, let decoy = challenge.decoy, decoy.codeFirst == method { notice = decoy.notice }

        let code = OneTimeCode.generate(digits: 6, using: runtime.random)
        let now = runtime.now()
        let outcome = try await store.issueCode(
            challengeID: challenge.id, method: method,
            codeHash: FactorVerifier.codeHash(box: box, code: code, method: method, challenge: challenge), now: now,
            expiresAt: now.addingTimeInterval(TimeInterval(configuration.codeLifetime)),
            minimumInterval: TimeInterval(configuration.codeResendInterval), maximumSends: configuration.maxCodeSends)
        switch outcome {
        case .issued: break
        case .tooSoon(let retryAfter): throw Problem.resendTooSoon(retryAfter: retryAfter)
        case .limitReached: throw Problem.sendLimit
        }
        // The challenge's own rules come first, so a resend asked for too soon spends no budget.
        // A refusal here leaves the code just stored unsent: nobody knows it, and a new one
        // is issued once the budget has room.
        // A sign-up notice draws on the decoy's per-user budget (what was typed), not
        // the known user's, on purpose: the user's own budget is also spent by their own codes,
        // which nobody else sees, so a user who signed in a few times would answer
        // `429 rate.limited` where a new address answers `202`: an oracle for active accounts.
        // The typed address's budget is spent only by what is asked for that address, alike for
        // every address. (Its destination budget is the address's own either way.)
        try await limiter.admitSend(
            channel, to: budgetSubjects(channel, address: address, user: user, challenge: challenge), userID: user?.id,
            challengeID: challenge.id)
        // The message is handed to the dispatcher and delivered in the background:
        // a known address's answer takes no longer than a decoy's, which sends nothing, and a
        // gateway's failure is not told (it is audited `message.delivery_failed`).
        // In the user's language; before there is a user (a sign-up's code, a known user's
        // notice), in the one the challenge was opened with.
        let text = user.map(messageText(for:)) ?? messageText(locale: challenge.decoy?.language)
        let masked: String
        if let notice {
            await messages.submit(QueuedMessage(
                OutboundMessage(channel: channel, to: notice, text: text.signUpNotice(for: channel, issuer: configuration.issuer), sentAt: now),
                purpose: .signUpNotice, challengeID: challenge.id))
            masked = decoyMask(channel, for: challenge)
        } else if let address {
            await messages.submit(QueuedMessage(
                OutboundMessage(channel: channel, to: address, text: text.code(code, for: challenge, lifetime: configuration.codeLifetime), sentAt: now),
                purpose: .code, userID: user?.id, challengeID: challenge.id))
            masked = channel == .sms ? Self.maskPhone(address) : Self.maskEmail(address)
        } else {
            masked = decoyMask(channel, for: challenge)
        }
        logger.debug("code sent", metadata: ["challenge": "\(challenge.id)", "channel": "\(channel.rawValue)"])
        // A decoy's code is stored but never sent; the trail says so (clients never see it).
        await audit.record(
            .codeSent, outcome: notice != nil ? "notice_sent" : address == nil ? "not_sent" : "success", userID: user?.id,
            challengeID: challenge.id, method: method, channel: channel)
        return CodeSentResponse(sentTo: masked, resendAfter: configuration.codeResendInterval)
    }

    /// `+33612345612` → `+33*******12`.
    static func maskPhone(_ phone: String) -> String {
        guard phone.count > 5 else { return String(repeating: "*", count: phone.count) }
        return "\(phone.prefix(3))\(String(repeating: "*", count: phone.count - 5))\(phone.suffix(2))"
    }

    /// `savvy@example.com` → `s****@example.com`.
    static func maskEmail(_ email: String) -> String {
        guard let at = email.firstIndex(of: "@") else { return "****" }
        return "\(email.prefix(1))****\(email[at...])"
    }

    // MARK: Decoys

    /// Who an unknown user's decoy challenge stands for: a keyed hash of what was typed and the
    /// e-mail mask a real user with that address would get. (A user id that was typed has no
    /// address to follow; the mask is then invented from the hash, in the same shape.)
    func decoySubject(for reference: UserReference) -> DecoySubject {
        if let email = reference.email {
            let normalized = InputRules.normalizedEmail(email)
            return DecoySubject(subjectKey: limiter.subject("email|\(normalized)"), emailMask: Self.maskEmail(normalized))
        }
        let subjectKey = limiter.subject("userid|\(reference.userId ?? "")")
        let digest = box.mac(Array("decoy-email|\(subjectKey)".utf8), purpose: "decoy-mask")
        let letter = Character(UnicodeScalar(UInt8(ascii: "a") + digest[0] % 26))
        let domain = ["gmail.com", "outlook.com", "yahoo.com"][Int(digest[1]) % 3]
        return DecoySubject(subjectKey: subjectKey, emailMask: "\(letter)****@\(domain)")
    }

    /// A phone sign-up's decoy: keyed by the typed number, its SMS mask that
    /// number's, its e-mail mask made up as for a user id.
    func decoySubject(forPhone phone: String) -> DecoySubject {
        let subjectKey = limiter.subject("phone|\(phone)")
        let digest = box.mac(Array("decoy-email|\(subjectKey)".utf8), purpose: "decoy-mask")
        let letter = Character(UnicodeScalar(UInt8(ascii: "a") + digest[0] % 26))
        let domain = ["gmail.com", "outlook.com", "yahoo.com"][Int(digest[1]) % 3]
        return DecoySubject(subjectKey: subjectKey, emailMask: "\(letter)****@\(domain)", phoneMask: Self.maskPhone(phone))
    }

    /// The mask a decoy shows: the e-mail mask kept at creation, or the mask of a plausible
    /// number of the configured shape, its digits drawn from the keyed hash of what was typed,
    /// so every decoy challenge for one address shows the same number.
    func decoyMask(_ channel: OutboundMessage.Channel, for challenge: ChallengeRecord) -> String {
        let subject = challenge.decoy ?? DecoySubject(subjectKey: limiter.subject("challenge|\(challenge.id)"), emailMask: "****")
        switch channel {
        case .email, .push: return subject.emailMask  // (push carries no code: never asked)
        case .sms: return subject.phoneMask ?? Self.maskPhone(decoyPhone(subjectKey: subject.subjectKey))
        }
    }

    /// The configured pattern with each `#` replaced by a digit of the keyed hash.
    func decoyPhone(subjectKey: String) -> String {
        let digest = box.mac(Array("decoy-phone|\(subjectKey)".utf8), purpose: "decoy-mask")
        var index = 0
        return String(configuration.decoyPhonePattern.map { character -> Character in
            guard character == "#" else { return character }
            defer { index += 1 }
            return Character(String(digest[index % digest.count] % 10))
        })
    }

    /// The budgets a send draws from. A real user's are named by the user and the address the
    /// code goes to; a decoy's by what was typed (its e-mail budget is the very one a user with
    /// that address would have).
    func budgetSubjects(
        _ channel: OutboundMessage.Channel, address: String?, user: UserRecord?, challenge: ChallengeRecord
    ) -> RateLimiter.SendSubjects {
        if let user, let address {
            let destination = channel == .sms ? "phone|\(address)" : "email|\(InputRules.normalizedEmail(address))"
            return RateLimiter.SendSubjects(user: limiter.subject("user|\(user.id)"), destination: limiter.subject(destination))
        }
        let typed = challenge.decoy?.subjectKey ?? limiter.subject("challenge|\(challenge.id)")
        return RateLimiter.SendSubjects(
            user: limiter.subject("decoy-user|\(typed)"),
            // A phone sign-up's decoy was typed as a number: it shares that number's budget.
            destination: channel == .sms && challenge.decoy?.phoneMask == nil ? limiter.subject("decoy-phone|\(typed)") : typed)
    }
}
