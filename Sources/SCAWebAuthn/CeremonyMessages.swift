/// A registration response as the browser returns it, decoded from the wire.
public struct RegistrationResponse: Sendable {
    /// `rawId`.
    public let credentialId: [UInt8]
    public let clientDataJSON: [UInt8]
    public let attestationObject: [UInt8]

    public init(credentialId: [UInt8], clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        self.credentialId = credentialId
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
    }
}

/// An assertion as the browser returns it, decoded from the wire.
public struct AssertionResponse: Sendable {
    /// `rawId`.
    public let credentialId: [UInt8]
    public let clientDataJSON: [UInt8]
    public let authenticatorData: [UInt8]
    public let signature: [UInt8]
    /// Present for discoverable credentials: the user id given at registration.
    public let userHandle: [UInt8]?

    public init(
        credentialId: [UInt8],
        clientDataJSON: [UInt8],
        authenticatorData: [UInt8],
        signature: [UInt8],
        userHandle: [UInt8]?
    ) {
        self.credentialId = credentialId
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}

/// What the server keeps of a registered credential, as the assertion check needs it.
public struct StoredCredential: Sendable {
    public let credentialId: [UInt8]
    /// The COSE key as registered.
    public let publicKey: [UInt8]
    public let signCount: UInt32
    public let backupEligible: Bool
    /// The user id the credential was created for.
    public let userHandle: [UInt8]

    public init(credentialId: [UInt8], publicKey: [UInt8], signCount: UInt32, backupEligible: Bool, userHandle: [UInt8]) {
        self.credentialId = credentialId
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.userHandle = userHandle
    }
}

/// A registration that passed every check.
public struct VerifiedRegistration: Sendable {
    public let credentialId: [UInt8]
    public let publicKey: COSEKey
    public let signCount: UInt32
    public let aaguid: [UInt8]
    public let flags: AuthenticatorFlags
    public let attestationType: AttestationType
    public let attestationFormat: String

    /// Whether the authenticator verified the user (biometric or PIN).
    public var userVerified: Bool { flags.contains(.userVerified) }
    /// Whether the credential may sync to other devices.
    public var backupEligible: Bool { flags.contains(.backupEligible) }
}

/// An assertion that passed every check.
public struct VerifiedAssertion: Sendable {
    /// The counter to store.
    public let signCount: UInt32
    public let flags: AuthenticatorFlags

    /// Whether the authenticator verified the user: a passkey then proves two categories.
    public var userVerified: Bool { flags.contains(.userVerified) }
}
