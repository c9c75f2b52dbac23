/// The flags byte of authenticator data.
package struct AuthenticatorFlags: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// UP: a person touched or otherwise acknowledged the authenticator.
    package static let userPresent = AuthenticatorFlags(rawValue: 0x01)
    /// UV: the authenticator checked the person (biometric, PIN).
    package static let userVerified = AuthenticatorFlags(rawValue: 0x04)
    /// BE: the credential may be backed up (synced passkey); fixed at creation.
    package static let backupEligible = AuthenticatorFlags(rawValue: 0x08)
    /// BS: the credential is backed up now.
    package static let backedUp = AuthenticatorFlags(rawValue: 0x10)
    /// AT: attested credential data follows.
    package static let attestedCredentialData = AuthenticatorFlags(rawValue: 0x40)
    /// ED: extension data follows.
    package static let extensionData = AuthenticatorFlags(rawValue: 0x80)
}
