/// `POST /v1/signup-or-in`: the address a one-time code is offered for. Exactly
/// one of `email` and `phone`. `locale` is the language the person asks for: a new user is
/// created with it, and the sign-up's code is written in it.
package struct SignUpOrInRequest: Codable, Sendable, Equatable {
    package var email: String?
    package var phone: String?
    /// A BCP 47 tag of a language the server ships (`de`, `de-AT`), as in a profile.
    package var locale: String?

    package init(email: String? = nil, phone: String? = nil, locale: String? = nil) {
        self.email = email
        self.phone = phone
        self.locale = locale
    }
}

/// `POST /v1/me/enrolment` with an enrolment token: the one second element a new user adds.
/// Exactly one of `password`, `pin`, `totp: true` (a seed is drawn and returned once) or
/// `activationCode: true` (a code to bind a device with).
package struct EnrolmentRequest: Codable, Sendable, Equatable {
    package var password: String?
    package var pin: String?
    package var totp: Bool?
    package var activationCode: Bool?
    /// The new user's name and custom attributes, set with the element (optional).
    package var name: String?
    package var attributes: [String: String]?

    package init(
        password: String? = nil, pin: String? = nil, totp: Bool? = nil, activationCode: Bool? = nil, name: String? = nil,
        attributes: [String: String]? = nil
    ) {
        self.name = name
        self.attributes = attributes
        self.password = password
        self.pin = pin
        self.totp = totp
        self.activationCode = activationCode
    }
}

/// What an enrolment added: the user's methods after it, and the TOTP seed or activation
/// code when that was the element (shown once).
package struct EnrolmentResponse: Codable, Sendable, Equatable {
    package var userId: String
    package var methods: [AuthenticationMethod]
    package var totp: TOTPEnrollmentResponse?
    package var activationCode: ActivationCodeResponse?

    package init(
        userId: String, methods: [AuthenticationMethod], totp: TOTPEnrollmentResponse? = nil,
        activationCode: ActivationCodeResponse? = nil
    ) {
        self.userId = userId
        self.methods = methods
        self.totp = totp
        self.activationCode = activationCode
    }
}
