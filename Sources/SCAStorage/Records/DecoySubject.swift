import SCACore

/// Who a decoy challenge (an unknown user's) stands for, kept so that everything it answers
/// later (masks, send budgets, failure counters) follows what was typed, as a real user's
/// would, without the store ever holding the typed address.
///
/// Only a keyed hash and the e-mail mask are kept: the hash is enough to count budgets per
/// address and cannot be reversed without the server key; the mask is what every answer about
/// the challenge shows anyway (first letter and domain), so storing it reveals nothing more.
///
/// A sign-up-or-in challenge keeps one whoever the address belongs to, a known user
/// included (its `userID` then says it is no decoy): it is what was typed, and it carries the
/// code the challenge offers alone at first (`codeFirst`).
public struct DecoySubject: Sendable, Equatable, Codable {
    /// A keyed hash (base64url) of the normalized address or id that was typed.
    public var subjectKey: String
    /// The e-mail mask a real user with the typed address would get (`g****@example.com`).
    public var emailMask: String
    /// Sign-up or in: the normalized address a sign-up challenge sends its code to
    /// and creates a user for once the code is proven. Kept only when sign-up is allowed for
    /// it: the person asked to be e-mailed there. Nil for every other decoy.
    public var signUpAddress: String?
    /// Sign-up by phone: the E.164 number a phone sign-up challenge texts its code
    /// to and creates a user for once the code is proven; kept only when sign-up by phone is
    /// allowed, as `signUpAddress` is for e-mail.
    public var signUpPhone: String?
    /// Sign-up by phone: the SMS mask a real user with the typed number would get, so a decoy
    /// for a number shows that number (as a known user's challenge does) whether sign-up is on
    /// or off. Nil for every other decoy (they show a plausible made-up number).
    public var phoneMask: String?
    /// Sign-up or in: the code of the typed address (`email_otp` or `sms_otp`),
    /// the only method the challenge offers until its category is collected
    /// (``ChallengeRecord/offeredMethods``). Nil for every other challenge.
    public var codeFirst: AuthenticationMethod?
    /// Sign-up or in: the address of a known user whose code cannot count (their
    /// codes of that kind are off, or the login policy does not take them). The challenge is a
    /// decoy; asking for its code sends a notice there instead, by the code's channel, through
    /// the code's send path and budgets. Nil for every other challenge.
    public var notice: String?
    /// Sign-up or in: the language (`de`) of what the challenge sends before there is a user
    /// whose profile says it: a sign-up's code, in the language the sign-up asked for, which the
    /// new user is then created with; a known user's notice, in the language stored on their
    /// account. Nil: the server's default language.
    public var language: String?

    public init(
        subjectKey: String, emailMask: String, signUpAddress: String? = nil, signUpPhone: String? = nil,
        phoneMask: String? = nil, codeFirst: AuthenticationMethod? = nil, notice: String? = nil, language: String? = nil
    ) {
        self.subjectKey = subjectKey
        self.emailMask = emailMask
        self.signUpAddress = signUpAddress
        self.signUpPhone = signUpPhone
        self.phoneMask = phoneMask
        self.codeFirst = codeFirst
        self.notice = notice
        self.language = language
    }
}
