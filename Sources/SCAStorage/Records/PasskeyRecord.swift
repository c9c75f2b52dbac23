import Foundation
import SCACore

/// A WebAuthn credential (passkey) registered to a user: what the assertion check needs and
/// what the user and operators see of it.
public struct PasskeyRecord: Sendable, Equatable {
    /// `pk_…`.
    public var id: String
    public var userID: String
    /// The authenticator's credential id (unique across users).
    public var credentialID: [UInt8]
    /// The COSE public key as registered.
    public var publicKey: [UInt8]
    /// The last signature counter accepted (0 for authenticators without a counter).
    public var signCount: Int64
    /// Whether the credential may sync to other devices (fixed at registration).
    public var backupEligible: Bool
    /// Whether it was backed up at its last use.
    public var backedUp: Bool
    /// The authenticator model (16 bytes, zero when not disclosed).
    public var aaguid: [UInt8]
    /// `none`, `self` or `basic`.
    public var attestationType: String
    /// `none` or `packed`.
    public var attestationFormat: String
    public var name: String
    public var status: PasskeyStatus
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(
        id: String, userID: String, credentialID: [UInt8], publicKey: [UInt8], signCount: Int64,
        backupEligible: Bool, backedUp: Bool, aaguid: [UInt8], attestationType: String, attestationFormat: String,
        name: String, status: PasskeyStatus = .active, createdAt: Date, lastUsedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.aaguid = aaguid
        self.attestationType = attestationType
        self.attestationFormat = attestationFormat
        self.name = name
        self.status = status
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// The answer to registering a passkey.
public enum PasskeyRegistration: Sendable, Equatable {
    case registered(PasskeyRecord)
    /// This credential id is registered already (to this user or another).
    case duplicateCredential
    /// The user has `maximumPerUser` passkeys already.
    case limitReached

    /// The decision both backends apply, with the user's row locked: the count and the
    /// duplicate check see every registration before this one.
    public static func decide(
        _ passkey: PasskeyRecord, credentialTaken: Bool, ownerPasskeys: Int, maximumPerUser: Int
    ) -> PasskeyRegistration {
        if credentialTaken { return .duplicateCredential }
        if ownerPasskeys >= maximumPerUser { return .limitReached }
        return .registered(passkey)
    }
}
