/// The flags byte of authenticator data.
public struct AuthenticatorFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// UP: a person touched or otherwise acknowledged the authenticator.
    public static let userPresent = AuthenticatorFlags(rawValue: 0x01)
    /// UV: the authenticator checked the person (biometric, PIN).
    public static let userVerified = AuthenticatorFlags(rawValue: 0x04)
    /// BE: the credential may be backed up (synced passkey); fixed at creation.
    public static let backupEligible = AuthenticatorFlags(rawValue: 0x08)
    /// BS: the credential is backed up now.
    public static let backedUp = AuthenticatorFlags(rawValue: 0x10)
    /// AT: attested credential data follows.
    public static let attestedCredentialData = AuthenticatorFlags(rawValue: 0x40)
    /// ED: extension data follows.
    public static let extensionData = AuthenticatorFlags(rawValue: 0x80)
}
