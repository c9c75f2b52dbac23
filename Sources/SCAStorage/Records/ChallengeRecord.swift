import Foundation
import SCACore

/// A challenge as stored. `version` grows with every change, so that updates are
/// compare-and-set and a challenge completes at most once.
public struct ChallengeRecord: Sendable, Equatable {
    public var id: String
    /// The owner; nil for a decoy challenge issued to an unknown user.
    public var userID: String?
    public var operation: OperationKind
    public var verdict: Verdict
    public var requiredCategories: Int
    public var methods: [AuthenticationMethod]
    /// 32 random bytes, base64url; part of every device-signed payload.
    public var nonce: String
    /// The transaction being approved (payments only) and its digest.
    public var transaction: Transaction?
    public var transactionDigest: String?
    public var deviceID: String?
    public var state: ChallengeState
    /// Methods whose proofs were accepted, in order (the token's `amr`).
    public var acceptedMethods: [AuthenticationMethod]
    /// Deferred verdict: methods whose proofs were collected but wrong, not yet revealed.
    public var rejectedMethods: [AuthenticationMethod]
    /// Failed attempts (wrong immediate proofs, failed deferred rounds) on this challenge. The
    /// lockout counts per user (`LockoutState`) or, for a decoy, per unknown address.
    public var failedAttempts: Int
    public var createdAt: Date
    public var expiresAt: Date
    public var completedAt: Date?
    public var version: Int
    /// A decoy's stand-in for the user it does not have (nil for a real user's challenge, except
    /// one opened by sign-up or in: what was typed and its code-first marker).
    public var decoy: DecoySubject?
    /// The method of the proof being checked right now, if any: a challenge checks one proof
    /// at a time, so a round can never hold two guesses at one element, and a right code sent
    /// many times at once is checked once (the others are refused before evaluation).
    public var pendingMethod: AuthenticationMethod?
    /// The RTS exemption it completed under, without proofs; nil otherwise.
    public var exemption: Exemption?
    /// Categories proofs proved besides their method's own (v3-passkey-proofs): a
    /// user-verified passkey adds inherence (or knowledge, as configured). Under the deferred
    /// verdict a wrong proof adds what it claimed, as its method's category counts as
    /// collected, so nothing is revealed before the verdict.
    public var extraCategories: [Category]
    /// The SHA-256 of every device signature accepted on this challenge (32 bytes each), kept
    /// across rounds: a signature is accepted once. It is kept with the challenge it signs, so
    /// it lives exactly as long as the signature could be replayed, and the compare-and-set
    /// that writes the challenge is what makes "once" hold between parallel proofs.
    public var usedSignatures: [[UInt8]]
    /// The partner the challenge's tokens are for, and what it was granted; nil for the bank's
    /// own surfaces. Set when the challenge is opened and never changed, so a hosted page can
    /// never turn into a first-party token (``TokenAccess``).
    public var delegation: Delegation?

    /// For a decoy, the keyed hash of what was typed (never the address itself): the key of its
    /// send budgets and of its failure counters, so an unknown address locks like a real user.
    public var subjectKey: String? { decoy?.subjectKey }

    public init(
        id: String, userID: String?, operation: OperationKind, verdict: Verdict,
        requiredCategories: Int, methods: [AuthenticationMethod], nonce: String,
        transaction: Transaction? = nil, transactionDigest: String? = nil, deviceID: String? = nil,
        state: ChallengeState = .pending, acceptedMethods: [AuthenticationMethod] = [],
        rejectedMethods: [AuthenticationMethod] = [], failedAttempts: Int = 0, createdAt: Date, expiresAt: Date,
        completedAt: Date? = nil, version: Int = 0, decoy: DecoySubject? = nil,
        pendingMethod: AuthenticationMethod? = nil, exemption: Exemption? = nil, extraCategories: [Category] = [],
        usedSignatures: [[UInt8]] = [], delegation: Delegation? = nil
    ) {
        self.usedSignatures = usedSignatures
        self.delegation = delegation
        self.exemption = exemption
        self.extraCategories = extraCategories
        self.id = id
        self.userID = userID
        self.operation = operation
        self.verdict = verdict
        self.requiredCategories = requiredCategories
        self.methods = methods
        self.nonce = nonce
        self.transaction = transaction
        self.transactionDigest = transactionDigest
        self.deviceID = deviceID
        self.state = state
        self.acceptedMethods = acceptedMethods
        self.rejectedMethods = rejectedMethods
        self.failedAttempts = failedAttempts
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.completedAt = completedAt
        self.version = version
        self.decoy = decoy
        self.pendingMethod = pendingMethod
    }
}
