import Foundation
import SCACore
import SCALocalization
import SCAStorage

/// Sign up or in with a one-time code. `POST /v1/signup-or-in` opens a login
/// challenge for the typed address that answers the same whether the address is known, new,
/// or new with sign-up off: it offers only the address's code (``SignUpOrIn``). Only what
/// proving that code does differs:
/// - a known user: the code is the possession element of a normal login; the answer is
///   `partial` and lists their other methods, as SCA still needs a second category;
/// - a new address with sign-up allowed (`signUp`, `signUpEmailDomains`): the user is created
///   with that address verified, and the answer is `enrolment` with an enrolment token;
/// - otherwise the challenge is a decoy: its code is never sent, nothing is created; a known
///   user whose code cannot count is sent a notice instead (``MessageText/signUpNotice(for:issuer:)``).
///
/// The enrolment token (`op` `enrolment`, `acr` `single-factor`, ten minutes, once) adds the
/// second element here and is refused by every other route (`auth.enrolment_only`).
package struct SignUpService: EngineService, Sendable {
    package let context: EngineContext
    let challenges: ChallengeService
    let tokens: TokenService
    let users: UserService
    let devices: DeviceService

    /// - Throws: `Problem.invalidRequest` (neither or both of e-mail and phone, a malformed
    ///   address or number, a `locale` naming no language the server writes in),
    ///   `Problem.rateLimited`; as `POST /v1/challenges` otherwise.
    /// - Parameters:
    ///   - delegation: the partner a hosted sign-in is for (its tokens are that partner's); nil
    ///     for the JSON API.
    ///   - language: the language the hosted page speaks, for when the request names none: the
    ///     sign-up's code is written in it and a new user is created with it.
    package func start(
        _ request: SignUpOrInRequest, delegation: Delegation? = nil, language: Language? = nil
    ) async throws -> ChallengeResponse {
        var language = language
        if let locale = request.locale {
            // Refused before anything is counted or opened: a malformed request changes nothing.
            switch ProfileLocale.language(ofTag: locale) {
            case .success(let requested): language = requested
            case .failure(let violation): throw Problem.invalidRequest(violation.reason)
            }
        }
        switch (request.email, request.phone) {
        case (nil, let phone?): return try await start(phone: phone, delegation: delegation, language: language)
        case (_?, nil): break
        default: throw Problem.invalidRequest("give exactly one of email and phone")
        }
        guard let email = request.email else { throw Problem.invalidRequest("email is required") }
        let normalized = InputRules.normalizedEmail(email)
        // Whether sign-up is allowed for it is the configuration's, never the address's: the
        // answer below has the same shape either way.
        return try await challenges.create(
            CreateChallengeRequest(operation: .login, user: UserReference(email: email)),
            signUpOrIn: .email(normalized, signUpAllowed: configuration.signUp.allows(email: normalized), language: language),
            delegation: delegation)
    }

    /// Sign-up or in by phone: the number normalized to E.164 is looked up as a login phone;
    /// known, new, and new with sign-up off answer alike (the SMS code offered, the typed
    /// number's mask), only a new number with sign-up allowed gets its code texted.
    private func start(phone: String, delegation: Delegation?, language: Language?) async throws -> ChallengeResponse {
        let normalized = InputRules.normalizedPhone(phone)
        if let problem = InputRules.phoneProblem(normalized) {
            // Counted like any challenge request, well-formed or not, before it is refused.
            try await challenges.limiter.admitChallenge()
            throw Problem.invalidRequest(problem)
        }
        return try await challenges.create(
            CreateChallengeRequest(operation: .login, user: UserReference()),
            signUpOrIn: .phone(normalized, signUpAllowed: configuration.signUp.allows(phone: normalized), language: language),
            delegation: delegation)
    }

    /// Adds the new user's second element with their enrolment token, used once: a password or
    /// a PIN (knowledge, the category a mailbox lacks), optionally with a TOTP seed; or an
    /// activation code to bind a device (whose biometric key brings the second category).
    /// - Throws: `Problem` 400 `request.invalid` (nothing or too much asked, a weak secret:
    ///   checked before the token is used), 401 (`token.invalid` for an expired or used token),
    ///   403 `auth.forbidden` (another operation's token), 409 `enrolment.complete`.
    package func enrol(_ request: EnrolmentRequest, authorization: String?) async throws -> EnrolmentResponse {
        let knowledge = [request.password, request.pin].compactMap { $0 }.count
        let device = request.activationCode == true
        let totp = request.totp == true
        guard (knowledge == 1 && !device) || (knowledge == 0 && device && !totp) else {
            throw Problem.invalidRequest(
                "give exactly one of password and pin (optionally with totp: true), or activationCode: true alone")
        }
        try UserService.validate(email: nil, password: request.password, pin: request.pin, phone: nil)
        let profileRequest = ProfileRequest(name: request.name, attributes: request.attributes)
        let profile = try ProfileService.applying(profileRequest, to: UserProfile())
        let setsProfile = request.name != nil || request.attributes != nil
        let claims = try await tokens.authorizeEnrolment(authorization)
        let userID = claims.sub.value
        guard let user = try await store.user(id: userID) else { throw Problem.userNotFound }
        guard try await challenges.awaitsSecondElement(user) else { throw Problem.enrolmentComplete }
        try await tokens.consume(claims)

        var response = EnrolmentResponse(userId: userID, methods: [])
        var elements: [String] = []
        if knowledge == 1 {
            var update = UserUpdate(
                passwordHash: try await users.hashSecret(request.password), pinHash: try await users.hashSecret(request.pin))
            elements.append(request.password != nil ? "password" : "pin")
            if totp {
                let seed = runtime.random.bytes(20)
                update.sealedTOTPSeed = try users.box.seal(seed, context: UserService.totpSealingContext)
                response.totp = TOTPEnrollmentResponse(
                    secret: Base32.encode(seed),
                    otpauthUri: TOTP.otpauthURI(secret: seed, account: UserService.totpAccount(of: user), issuer: configuration.issuer))
                elements.append("totp")
            }
            if setsProfile { update.profile = profile }
            // Compare-and-set: of parallel enrolments of one new user (parallel sign-ups of one
            // address each hold a token) exactly one sets its secret; the others are refused.
            update.precondition = .noSecrets
            let updated = try await Self.applyOnce(update, userID: userID, store: store)
            response.methods = updated.enrolledMethods
        } else {
            // Still nothing but the mailbox, checked in the same write as the profile.
            _ = try await Self.applyOnce(
                UserUpdate(profile: setsProfile ? profile : nil, precondition: .noSecrets), userID: userID, store: store)
            response.activationCode = try await devices.issueActivationCode(for: userID)
            response.methods = user.enrolledMethods
            elements.append("activation_code")
        }
        if setsProfile { elements.append("profile:" + ProfileService.fields(of: profileRequest)) }
        await audit.record(
            .signUpEnrolled, userID: userID, sessionID: claims.sid, operation: .enrolment,
            details: ["element": elements.joined(separator: ",")])
        return response
    }

    /// Writes an enrolment's update whose precondition a parallel enrolment may have spoilt.
    /// - Throws: `Problem` 409 `enrolment.complete` when another enrolment landed first.
    private static func applyOnce(_ update: UserUpdate, userID: String, store: any SCAStore) async throws -> UserRecord {
        do {
            return try await store.updateUser(id: userID, update)
        } catch StoreError.conflict(UserPrecondition.conflictField) {
            throw Problem.enrolmentComplete
        } catch StoreError.notFound {
            throw Problem.userNotFound
        }
    }
}
