import Foundation
import SCACore

/// Everything one proof changes, decided by pure code before the store is asked, and applied by
/// ``SCAStore/commitProof(_:)`` in one write transaction: all of it or (when a check inside the
/// transaction fails) none of it.
///
/// The checks, in order: the lockout plan may refuse the attempt (blocked, allowance taken),
/// the challenge must still have `expectedVersion` (compare-and-set), and a one-time factor to
/// use must still be unused. (A device signature's burn is part of the challenge,
/// ``ChallengeRecord/usedSignatures``: the compare-and-set covers it.)
public struct ProofCommit: Sendable, Equatable {
    /// The challenge as the proof leaves it, stored with version `expectedVersion + 1`; nil when
    /// the challenge is not changed (a late answer on a challenge closed meanwhile).
    public var challenge: ChallengeRecord?
    public var expectedVersion: Int
    /// Whose attempt counters to change, and how.
    public var lockout: LockoutChange?
    /// A one-time code or TOTP step to use up (compare-and-set in the same transaction): the
    /// commit is refused when it was used meanwhile.
    public var factor: FactorUse?
    /// What the proof does to the signing device.
    public var device: DeviceChange?
    /// The session a completing proof opens (``SCAStore/createSession(_:refreshToken:)``).
    public var session: SessionOpening?
    /// Entries appended to the audit trail, in this order, linked like every other append.
    public var audit: [AuditEntryDraft]
    /// The consent a completing proof decides (the hosted consent page's): stored by its own
    /// compare-and-set, with its event and audit entry, iff that wins. A lost one refuses
    /// nothing else: the proof stands, and the caller decides the consent again.
    public var consent: ConsentChange?
    /// What the completing proof of a payment or an account-information challenge changes in
    /// the risk engine's records.
    public var risk: RiskCompletion?

    public init(
        challenge: ChallengeRecord?, expectedVersion: Int, lockout: LockoutChange? = nil,
        factor: FactorUse? = nil, device: DeviceChange? = nil, session: SessionOpening? = nil, audit: [AuditEntryDraft] = [],
        consent: ConsentChange? = nil, risk: RiskCompletion? = nil
    ) {
        self.challenge = challenge
        self.expectedVersion = expectedVersion
        self.lockout = lockout
        self.factor = factor
        self.device = device
        self.session = session
        self.audit = audit
        self.consent = consent
        self.risk = risk
    }
}

/// A consent's status change as ``SCAStore/updateConsent(_:expectedVersion:enqueueing:auditing:)``
/// writes it, inside a proof's commit.
public struct ConsentChange: Sendable, Equatable {
    /// The consent as changed, stored with version `expectedVersion + 1`.
    public var consent: ConsentRecord
    public var expectedVersion: Int
    /// Its webhook event, written as `WebhookDeliveryRecord.toEnqueue` decides.
    public var event: WebhookDeliveryRecord?
    /// Appended after the proof's own entries: a status change always has its record.
    public var audit: AuditEntryDraft

    public init(consent: ConsentRecord, expectedVersion: Int, event: WebhookDeliveryRecord?, audit: AuditEntryDraft) {
        self.consent = consent
        self.expectedVersion = expectedVersion
        self.event = event
        self.audit = audit
    }
}

/// The attempt counters one proof changes: a user's, or an unknown address's
/// (``SCAStore/updateUnknownAddressLockout(key:_:)``'s row, created on first change).
public struct LockoutChange: Sendable, Equatable {
    public enum Subject: Sendable, Equatable {
        case user(id: String)
        case unknownAddress(key: String)
    }

    public var subject: Subject
    public var plan: LockoutPlan
    /// The counters as the caller last read them, nil when unknown. Only a
    /// hint: a backend may apply the plan to them and write the result by compare-and-set,
    /// in one round trip, when the stored counters still equal them, and otherwise reads the
    /// counters again as without it. The outcome is the plan applied to the stored counters
    /// either way.
    public var observed: LockoutState?

    public init(subject: Subject, plan: LockoutPlan, observed: LockoutState? = nil) {
        self.subject = subject
        self.plan = plan
        self.observed = observed
    }
}

/// What a judged device signature does to its device.
public enum DeviceChange: Sendable, Equatable {
    /// ``SCAStore/recordDeviceSuccess(id:now:)``.
    case success(deviceID: String, now: Date)
    /// ``SCAStore/recordDeviceFailure(id:maximumFailures:)``.
    case failure(deviceID: String, maximumFailures: Int)
}

/// A session and its first refresh token (none for a one-shot operation).
public struct SessionOpening: Sendable, Equatable {
    public var session: SessionRecord
    public var refreshToken: RefreshTokenRecord?

    public init(session: SessionRecord, refreshToken: RefreshTokenRecord?) {
        self.session = session
        self.refreshToken = refreshToken
    }
}
