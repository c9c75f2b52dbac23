import Crypto
import Foundation
import Logging
import SCACore
import SCAStorage

/// SMS and e-mail one-time codes: 6 CSPRNG digits, stored as a keyed hash bound to the
/// challenge (and the transaction), single use, limited in lifetime, resends and sends.
struct CodeService: Sendable {
    let store: any SCAStore
    let box: SecretBox
    let messages: any MessageSender
    let configuration: ServerConfiguration
    let runtime: ServerRuntime
    let logger: Logger
    let audit: AuditTrail

    /// - Parameter user: nil for a decoy challenge: the code is stored (so resend limits answer
    ///   the same) but never sent.
    /// - Throws: `Problem` 429 `otp.resend_too_soon` / `otp.send_limit`, 502 `otp.delivery_failed`.
    func send(_ method: AuthenticationMethod, for challenge: ChallengeRecord, to user: UserRecord?) async throws -> CodeSentResponse {
        let channel: OutboundMessage.Channel = method == .smsOTP ? .sms : .email
        let address: String? = method == .smsOTP ? user?.phone : user?.email
        if user != nil && address == nil { throw Problem.methodNotOffered(method) }

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
        let masked: String
        if let address {
            do {
                try await messages.send(OutboundMessage(channel: channel, to: address, text: Self.text(code: code, for: challenge, lifetime: configuration.codeLifetime), sentAt: now))
            } catch {
                logger.error("code not delivered", metadata: ["challenge": "\(challenge.id)", "channel": "\(channel.rawValue)"])
                throw Problem.deliveryFailed
            }
            masked = channel == .sms ? Self.maskPhone(address) : Self.maskEmail(address)
        } else {
            masked = Self.decoyMask(channel, challengeID: challenge.id)
        }
        logger.info("code sent", metadata: ["challenge": "\(challenge.id)", "channel": "\(channel.rawValue)"])
        // A decoy's code is stored but never sent; the trail says so (clients never see it).
        await audit.record(
            .codeSent, outcome: address == nil ? "not_sent" : "success", userID: user?.id, challengeID: challenge.id,
            details: ["channel": channel.rawValue, "method": method.rawValue])
        return CodeSentResponse(sentTo: masked, resendAfter: configuration.codeResendInterval)
    }

    /// The message carries the code and, for a payment, what the code approves (RTS art. 5:
    /// the payer is made aware of amount and payee).
    static func text(code: String, for challenge: ChallengeRecord, lifetime: Int) -> String {
        let minutes = max(1, lifetime / 60)
        if let transaction = challenge.transaction {
            var payee = transaction.payee.name
            if let iban = transaction.payee.iban { payee += ", \(TransactionRules.maskedIBAN(iban))" }
            return "\(code) is your code to pay \(transaction.amount) \(transaction.currency) to \(payee). "
                + "Valid \(minutes) min. If you did not start this payment, do not share it."
        }
        let purpose = challenge.operation.rawValue.replacingOccurrences(of: "_", with: " ")
        return "\(code) is your code for \(purpose). Valid \(minutes) min. Never share it."
    }

    /// `+33612345612` → `+33******12`.
    static func maskPhone(_ phone: String) -> String {
        guard phone.count > 5 else { return String(repeating: "*", count: phone.count) }
        return "\(phone.prefix(3))\(String(repeating: "*", count: phone.count - 5))\(phone.suffix(2))"
    }

    /// `savvy@example.com` → `s****@example.com`.
    static func maskEmail(_ email: String) -> String {
        guard let at = email.firstIndex(of: "@") else { return "****" }
        return "\(email.prefix(1))****\(email[at...])"
    }

    /// A plausible destination for a decoy, stable for the challenge.
    static func decoyMask(_ channel: OutboundMessage.Channel, challengeID: String) -> String {
        let digest = Array(SHA256.hash(data: Array(challengeID.utf8)))
        switch channel {
        case .sms: return "+33******\(String(format: "%02d", Int(digest[0]) % 100))"
        case .email:
            let letter = Character(UnicodeScalar(UInt8(ascii: "a") + digest[1] % 26))
            return "\(letter)****@\(["gmail.com", "outlook.com", "yahoo.com"][Int(digest[2]) % 3])"
        }
    }
}
