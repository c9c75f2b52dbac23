import Foundation
import SCACore

/// The current SMS or e-mail code of one challenge. Only a keyed hash of the code is kept.
public struct OneTimeCodeRecord: Sendable, Equatable {
    public var challengeID: String
    public var method: AuthenticationMethod
    public var codeHash: [UInt8]
    public var sentAt: Date
    public var expiresAt: Date
    /// How many codes were sent for this challenge and method.
    public var sendCount: Int
    public var used: Bool

    public init(
        challengeID: String, method: AuthenticationMethod, codeHash: [UInt8], sentAt: Date,
        expiresAt: Date, sendCount: Int, used: Bool = false
    ) {
        self.challengeID = challengeID
        self.method = method
        self.codeHash = codeHash
        self.sentAt = sentAt
        self.expiresAt = expiresAt
        self.sendCount = sendCount
        self.used = used
    }
}
