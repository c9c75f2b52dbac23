import Foundation

// Passkeys: WebAuthn's JSON forms, binary values in base64url as the browser's
// `PublicKeyCredential.toJSON()` and `parseCreationOptionsFromJSON` use them, so a web page or
// an iOS app (ASAuthorizationPlatformPublicKeyCredentialProvider) takes them as they are.

/// `rp` of the creation options.
public struct PasskeyRelyingParty: Codable, Sendable, Equatable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// `user` of the creation options. `id` is an opaque handle (never the e-mail), stable per user.
public struct PasskeyUserEntity: Codable, Sendable, Equatable {
    /// base64url user handle.
    public var id: String
    public var name: String
    public var displayName: String

    public init(id: String, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}

/// One accepted algorithm (`{"type": "public-key", "alg": -7}`).
public struct PasskeyCredentialParameters: Codable, Sendable, Equatable {
    public var type: String
    /// The COSE algorithm identifier.
    public var alg: Int

    public init(alg: Int, type: String = "public-key") {
        self.type = type
        self.alg = alg
    }
}

/// A credential named in `excludeCredentials` or `allowCredentials`.
public struct PasskeyCredentialDescriptor: Codable, Sendable, Equatable {
    public var type: String
    /// base64url credential id.
    public var id: String

    public init(id: String, type: String = "public-key") {
        self.type = type
        self.id = id
    }
}

/// `authenticatorSelection` of the creation options.
public struct PasskeyAuthenticatorSelection: Codable, Sendable, Equatable {
    /// `preferred`: a discoverable credential where the authenticator can make one.
    public var residentKey: String
    public var requireResidentKey: Bool
    /// `required`: the authenticator's biometric or PIN check.
    public var userVerification: String

    public init(residentKey: String = "preferred", requireResidentKey: Bool = false, userVerification: String = "required") {
        self.residentKey = residentKey
        self.requireResidentKey = requireResidentKey
        self.userVerification = userVerification
    }
}

/// `POST /v1/passkeys/registration/options`: `PublicKeyCredentialCreationOptions`.
public struct PasskeyCreationOptions: Codable, Sendable, Equatable {
    public var rp: PasskeyRelyingParty
    public var user: PasskeyUserEntity
    /// base64url; single use, bound to the user, valid for `timeout` milliseconds.
    public var challenge: String
    public var pubKeyCredParams: [PasskeyCredentialParameters]
    /// Milliseconds.
    public var timeout: Int
    /// The user's passkeys, so an authenticator holding one does not make a second.
    public var excludeCredentials: [PasskeyCredentialDescriptor]
    public var authenticatorSelection: PasskeyAuthenticatorSelection
    /// `none`, `indirect` or `direct`.
    public var attestation: String

    public init(
        rp: PasskeyRelyingParty, user: PasskeyUserEntity, challenge: String, pubKeyCredParams: [PasskeyCredentialParameters],
        timeout: Int, excludeCredentials: [PasskeyCredentialDescriptor], authenticatorSelection: PasskeyAuthenticatorSelection,
        attestation: String
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.attestation = attestation
    }
}

/// `response` of a registration credential (`AuthenticatorAttestationResponseJSON`).
public struct PasskeyAttestationResponse: Codable, Sendable, Equatable {
    /// base64url.
    public var clientDataJSON: String
    /// base64url CBOR.
    public var attestationObject: String
    public var transports: [String]?

    public init(clientDataJSON: String, attestationObject: String, transports: [String]? = nil) {
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
    }
}

/// What `navigator.credentials.create` returned (`RegistrationResponseJSON`).
public struct PasskeyRegistrationCredential: Codable, Sendable, Equatable {
    /// base64url credential id.
    public var id: String
    /// base64url credential id (the same as `id`).
    public var rawId: String
    /// `public-key`.
    public var type: String
    public var response: PasskeyAttestationResponse

    public init(id: String, rawId: String? = nil, response: PasskeyAttestationResponse, type: String = "public-key") {
        self.id = id
        self.rawId = rawId ?? id
        self.type = type
        self.response = response
    }
}

/// `POST /v1/passkeys`: the new credential and the name its owner gives it.
package struct RegisterPasskeyRequest: Codable, Sendable, Equatable {
    /// Shown in the passkey list; `Passkey` when absent.
    package var name: String?
    package var credential: PasskeyRegistrationCredential

    package init(name: String? = nil, credential: PasskeyRegistrationCredential) {
        self.name = name
        self.credential = credential
    }
}

/// A registered passkey as its owner and operators see it.
public struct PasskeyResponse: Codable, Sendable, Equatable {
    public var passkeyId: String
    public var name: String
    public var status: PasskeyStatus
    /// Whether the credential may sync to other devices.
    public var backupEligible: Bool
    public var backedUp: Bool
    /// `none`, `self` or `basic`.
    public var attestationType: String
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(
        passkeyId: String, name: String, status: PasskeyStatus, backupEligible: Bool, backedUp: Bool,
        attestationType: String, createdAt: Date, lastUsedAt: Date?
    ) {
        self.passkeyId = passkeyId
        self.name = name
        self.status = status
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.attestationType = attestationType
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// `PublicKeyCredentialRequestOptions`: what `navigator.credentials.get` takes to sign a
/// challenge's passkey proof.
public struct PasskeyRequestOptions: Codable, Sendable, Equatable {
    /// base64url; derived from the challenge (id, nonce, operation, transaction digest).
    public var challenge: String
    /// Milliseconds.
    public var timeout: Int
    public var rpId: String
    public var allowCredentials: [PasskeyCredentialDescriptor]
    /// `preferred`: with the authenticator's check a passkey proves two categories.
    public var userVerification: String

    public init(
        challenge: String, timeout: Int, rpId: String, allowCredentials: [PasskeyCredentialDescriptor],
        userVerification: String = "preferred"
    ) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
    }
}

/// `response` of an assertion (`AuthenticatorAssertionResponseJSON`).
public struct PasskeyAssertionResponse: Codable, Sendable, Equatable {
    /// base64url.
    public var clientDataJSON: String
    /// base64url.
    public var authenticatorData: String
    /// base64url.
    public var signature: String
    /// base64url, for discoverable credentials.
    public var userHandle: String?

    public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String? = nil) {
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}

/// What `navigator.credentials.get` returned (`AuthenticationResponseJSON`).
public struct PasskeyAssertionCredential: Codable, Sendable, Equatable {
    public var id: String
    public var rawId: String
    public var type: String
    public var response: PasskeyAssertionResponse

    public init(id: String, rawId: String? = nil, response: PasskeyAssertionResponse, type: String = "public-key") {
        self.id = id
        self.rawId = rawId ?? id
        self.type = type
        self.response = response
    }
}
