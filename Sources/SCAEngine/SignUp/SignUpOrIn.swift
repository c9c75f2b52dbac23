import SCACore
import SCALocalization
import SCAStorage

/// What `POST /v1/signup-or-in` asks for, and the pure decision of what its challenge
/// is, made the same way for every address so that nothing answered before the code is proven
/// tells a known address from a new one (or sign-up on from off):
/// - every challenge offers only the code of the typed address at first
///   (``SCAStorage/ChallengeRecord/offeredMethods``), with the policy's categories;
/// - a known user whose code can count: a challenge of theirs, the code their possession
///   element, their other methods offered once it is proven;
/// - a new address: a decoy, with the address to create a user for when sign-up allows it;
///   an unfinished sign-up (nothing but the proven address) resumes the same way;
/// - a known user whose code cannot count (those codes are off for them, or the login policy
///   does not take them): a decoy too, whose code is never sent nor proven; asking for it
///   sends them a notice instead (``MessageText/signUpNotice(for:issuer:)``).
///
/// Decided from the one user read every branch makes: no branch reads or writes more before
/// the answer.
package struct SignUpOrIn: Sendable, Equatable {
    /// The code of the typed address: `email_otp` for an e-mail, `sms_otp` for a number.
    var code: AuthenticationMethod
    /// The normalized e-mail address or E.164 number typed.
    var address: String
    /// Whether a new user may be created for `address` once its code is proven.
    var signUpAllowed: Bool
    /// The language the person asked for (the request's `locale`, or the hosted page's), if any.
    var language: Language?

    /// A sign-up-or-in challenge is judged proof by proof, whatever the login policy's verdict:
    /// its code must be proven before anything else is shown (under the deferred verdict a
    /// wrong code would be collected and open the known user's methods to whoever typed the
    /// address), and after the code one element is left, which a deferred round could not hide.
    static let verdict: Verdict = .immediate

    static func email(_ normalized: String, signUpAllowed: Bool, language: Language? = nil) -> SignUpOrIn {
        SignUpOrIn(code: .emailOTP, address: normalized, signUpAllowed: signUpAllowed, language: language)
    }

    static func phone(_ normalized: String, signUpAllowed: Bool, language: Language? = nil) -> SignUpOrIn {
        SignUpOrIn(code: .smsOTP, address: normalized, signUpAllowed: signUpAllowed, language: language)
    }

    /// The number to look up as a login phone (nil for an e-mail).
    var loginPhone: String? { code == .smsOTP ? address : nil }

    /// The challenge to open.
    struct Plan: Sendable, Equatable {
        /// Whose challenge it is: nil for a decoy.
        var user: UserRecord?
        /// Everything the challenge may offer, its code included.
        var methods: [AuthenticationMethod]
        /// Where the code goes for a new user (set on the typed subject).
        var signUpAddress: String?
        var signUpPhone: String?
        /// Where the notice goes instead of a code, for a known user whose code cannot count.
        var notice: String?
        /// The language of what the challenge sends before a user is known, and of the user a
        /// sign-up creates (``SCAStorage/DecoySubject/language``).
        var language: String?

        /// The typed subject with what the challenge needs of this plan.
        func marking(_ subject: DecoySubject, code: AuthenticationMethod) -> DecoySubject {
            var marked = subject
            marked.codeFirst = code
            marked.signUpAddress = signUpAddress
            marked.signUpPhone = signUpPhone
            marked.notice = notice
            marked.language = language
            return marked
        }
    }

    /// - Parameters:
    ///   - found: the user the typed address names, if any.
    ///   - policy: the login policy's methods, in their order.
    ///   - decoyMethods: the profile a decoy offers (`decoyMethods`).
    ///   - passkeyUsable: whether `found` can prove with a passkey here.
    func plan(
        found: UserRecord?, policy: [AuthenticationMethod], decoyMethods: [AuthenticationMethod], passkeyUsable: Bool
    ) -> Plan {
        // A sign-up's words are in the language asked for now; a notice goes to the account's
        // owner, in the language they chose (the one who typed the address may be someone else).
        var decoy = Plan(
            user: nil, methods: Self.offer(code, profile: decoyMethods, policy: policy),
            language: language?.rawValue ?? found?.profile.locale)
        let signUp = signUpAllowed ? address : nil
        guard let found else { return withSignUp(decoy, signUp) }
        // Nothing but the proven address yet: the sign-up resumes (whether a device or a
        // passkey came meanwhile is read once the code is proven, not before the answer).
        if signUpAllowed, found.awaitsSecondElement(activeDevices: 0, passkeys: found.activePasskeys) {
            return withSignUp(decoy, signUp)
        }
        guard Self.codeCounts(code, for: found, typed: address, policy: policy) else {
            decoy.notice = code == .smsOTP ? address : found.email
            decoy.language = found.profile.locale ?? language?.rawValue
            return decoy
        }
        var profile = found.enrolledMethods
        if passkeyUsable { profile.append(.passkey) }
        return Plan(user: found, methods: Self.offer(code, profile: profile, policy: policy))
    }

    private func withSignUp(_ plan: Plan, _ signUp: String?) -> Plan {
        var plan = plan
        if code == .smsOTP { plan.signUpPhone = signUp } else { plan.signUpAddress = signUp }
        return plan
    }

    /// Whether `user`'s code of the typed address is a possession element of their login: the
    /// policy takes it, it is on for them, and (a number) it goes to the number typed.
    static func codeCounts(_ code: AuthenticationMethod, for user: UserRecord, typed: String, policy: [AuthenticationMethod]) -> Bool {
        guard policy.contains(code), user.enrolledMethods.contains(code) else { return false }
        return code != .smsOTP || user.phone == typed
    }

    /// The policy's methods of a profile, in the policy's order, and the code in any case.
    static func offer(_ code: AuthenticationMethod, profile: [AuthenticationMethod], policy: [AuthenticationMethod]) -> [AuthenticationMethod] {
        var methods = policy.filter(profile.contains)
        if !methods.contains(code) { methods.append(code) }
        return methods
    }
}
