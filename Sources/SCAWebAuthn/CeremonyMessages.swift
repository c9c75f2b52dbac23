/// A registration response as the browser returns it, decoded from the wire.
package struct RegistrationResponse: Sendable {
    /// `rawId`.
    package let credentialId: [UInt8]
    package let clientDataJSON: [UInt8]
    package let attestationObject: [UInt8]

    package init(credentialId: [UInt8], clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        self.credentialId = credentialId
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
    }
}

/// An assertion as the browser returns it, decoded from the wire.
package struct AssertionResponse: Sendable {
    /// `rawId`.
    package let credentialId: [UInt8]
    package let clientDataJSON: [UInt8]
    package let authenticatorData: [UInt8]
    package let signature: [UInt8]
    /// Present for discoverable credentials: the user id given at registration.
    package let userHandle: [UInt8]?

    package init(
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
package struct StoredCredential: Sendable {
    package let credentialId: [UInt8]
    /// The COSE key as registered.
    package let publicKey: [UInt8]
    package let signCount: UInt32
    package let backupEligible: Bool
    /// The user id the credential was created for.
    package let userHandle: [UInt8]

    package init(credentialId: [UInt8], publicKey: [UInt8], signCount: UInt32, backupEligible: Bool, userHandle: [UInt8]) {
        self.credentialId = credentialId
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.userHandle = userHandle
    }
}

/// A registration that passed every check.
package struct VerifiedRegistration: Sendable {
    package let credentialId: [UInt8]
    package let publicKey: COSEKey
    package let signCount: UInt32
    package let aaguid: [UInt8]
    package let flags: AuthenticatorFlags
    package let attestationType: AttestationType
    package let attestationFormat: String

    /// Whether the authenticator verified the user (biometric or PIN).
    package var userVerified: Bool { flags.contains(.userVerified) }
    /// Whether the credential may sync to other devices.
    package var backupEligible: Bool { flags.contains(.backupEligible) }
}

/// An assertion that passed every check.
package struct VerifiedAssertion: Sendable {
    /// The counter to store.
    package let signCount: UInt32
    package let flags: AuthenticatorFlags

    /// Whether the authenticator verified the user: a passkey then proves two categories.
    package var userVerified: Bool { flags.contains(.userVerified) }
}
