import Foundation
import SCACore

/// The persistence of swift-sca, written as domain operations. Each method is atomic on its
/// own, across threads and across server instances sharing one database, so a check that
/// must happen once (complete a challenge, count a failure, burn a TOTP step, rotate a
/// refresh token, consume a payment token) is one call here.
public protocol SCAStore: Sendable {
    // MARK: Users

    /// - Throws: `StoreError.conflict` when the id, e-mail or login phone is taken.
    func createUser(_ user: UserRecord) async throws
    func user(id: String) async throws -> UserRecord?
    /// - Parameter email: compared lower-cased.
    func user(email: String) async throws -> UserRecord?
    /// Sign-up by phone: the user whose login phone is `loginPhone` (E.164, exact).
    func user(loginPhone: String) async throws -> UserRecord?
    /// All users, oldest first.
    func users() async throws -> [UserRecord]
    /// The users an operator's search names, in e-mail order, at most `limit` (see ``UserSearch``),
    /// from after the user `after` in that order (the last one of the page before; a user id,
    /// so that a page's address never holds an e-mail address an operator may see only masked).
    func findUsers(_ search: UserSearch, after: String?, limit: Int) async throws -> [UserRecord]
    /// Applies the non-nil fields of `update`.
    /// - Throws: `StoreError.notFound`, or `StoreError.conflict` when the new e-mail is taken.
    @discardableResult
    func updateUser(id: String, _ update: UserUpdate) async throws -> UserRecord

    // MARK: Lockout

    /// Counts one attempt up front unless the user is blocked or the allowance is taken by
    /// attempts still being evaluated. A temporary block that has run out is lifted here.
    func reserveAttempt(userID: String, policy: LockoutPolicy, now: Date) async throws -> AttemptReservation
    /// A reserved attempt turned out wrong: keep it counted and block when the limit is reached.
    func recordFailure(userID: String, policy: LockoutPolicy, now: Date) async throws -> FailureOutcome
    /// A reserved attempt turned out right but the authentication is not finished yet:
    /// give the reserved attempt back (`failed_attempts - 1`, never below zero). Unlike
    /// `recordSuccess`, earlier failures stay counted, so knowing one element never buys
    /// more guesses at another.
    func releaseAttempt(userID: String) async throws
    /// The whole authentication succeeded (a challenge completed): failures and temporary
    /// blocks start again from zero.
    func recordSuccess(userID: String) async throws
    /// Lifts any block and clears the counters (an operator's decision).
    /// - Returns: false when there is no such user.
    func unblockUser(id: String) async throws -> Bool

    // MARK: Unknown addresses (v2-unknown-address-lockout)

    /// The failure counters of an unknown address, keyed by a keyed hash of what was typed
    /// (never the address): loads them (fresh ones when there are none), applies `transition`
    /// (one of the pure `LockoutState` transitions) and stores the result if it changed, all
    /// in one transaction, so concurrent guesses at one address are counted one after the other.
    func updateUnknownAddressLockout<Outcome: Sendable>(
        key: String, _ transition: @escaping @Sendable (inout LockoutState) -> Outcome
    ) async throws -> Outcome

    // MARK: TOTP

    /// Burns a TOTP time step: true only if `step` is newer than every step accepted before.
    func acceptTOTPStep(userID: String, step: Int64) async throws -> Bool

    // MARK: Challenges

    func insertChallenge(_ challenge: ChallengeRecord) async throws
    func challenge(id: String) async throws -> ChallengeRecord?
    /// Compare-and-set: stores `challenge` with version `expectedVersion + 1` only if the
    /// stored version is still `expectedVersion`.
    /// - Returns: false when another update came first.
    func updateChallenge(_ challenge: ChallengeRecord, expectedVersion: Int) async throws -> Bool

    // MARK: One-time codes

    /// Replaces the challenge's code for `method` unless the last one, still unused, was sent
    /// less than `minimumInterval` ago, or `maximumSends` were sent already. (A used code holds
    /// nothing back: after a failed deferred verdict the user needs a fresh one at once.)
    func issueCode(
        challengeID: String, method: AuthenticationMethod, codeHash: [UInt8], now: Date,
        expiresAt: Date, minimumInterval: TimeInterval, maximumSends: Int
    ) async throws -> CodeIssueOutcome
    /// Marks the code used if it matches, is unused and has not expired.
    /// - Returns: `.consumed` exactly once per code; `.alreadyUsed` when it matches a code used
    ///   before (a right code presented again), `.rejected` otherwise.
    func consumeCode(challengeID: String, method: AuthenticationMethod, codeHash: [UInt8], now: Date) async throws -> CodeConsumption
    // A proof's code is read, judged purely and used in the proof's commit.
    /// The challenge's current code for `method`, as stored; nil when none was issued. A read:
    /// a proof uses the code in its commit (``FactorUse/deliveredCode(challengeID:method:codeHash:now:)``).
    func oneTimeCode(challengeID: String, method: AuthenticationMethod) async throws -> OneTimeCodeRecord?

    // MARK: Sessions and tokens

    func createSession(_ session: SessionRecord, refreshToken: RefreshTokenRecord?) async throws
    func session(id: String) async throws -> SessionRecord?
    /// Marks a use of the session, ending it instead when it was idle longer than `idleTimeout`.
    func useSession(id: String, now: Date, idleTimeout: TimeInterval) async throws -> SessionUse
    /// Ends the session and, in the same transaction, announces it when it was a partner's and
    /// that client takes back-channel logouts (``WebhookDeliveryRecord/logout(ofSession:clientID:now:)``).
    /// Revoking twice keeps the first date and announces once; an unknown id is ignored.
    func revokeSession(id: String, now: Date) async throws
    /// Ends every live session of the user, each announced as ``revokeSession(id:now:)`` does,
    /// in one transaction.
    /// - Returns: how many sessions it ended.
    func endSessions(userID: String, now: Date) async throws -> Int
    /// The user's sessions, partner sign-ins, consents and operations, oldest first each, in one
    /// read.
    func holdings(userID: String) async throws -> UserHoldings
    /// Binds the session's tokens to the key of `thumbprint` (DPoP), unless they are bound to
    /// another key already: true when the session is now bound to this key. A revoked session
    /// is never bound.
    func bindSession(id: String, toKey thumbprint: String) async throws -> Bool
    /// The session a refresh token belongs to, used or not.
    func sessionID(forRefreshTokenHash hash: [UInt8]) async throws -> String?
    /// Uses the presented refresh token once and stores its successor in the same step. Without
    /// a successor (`replacementHash` nil) the token stays valid: the session is checked and
    /// marked used alike, for a refresh token bound to a key, which rotation would not protect more.
    func rotateRefreshToken(
        presentedHash: [UInt8], replacementHash: [UInt8]?, replacementExpiresAt: Date, now: Date,
        idleTimeout: TimeInterval
    ) async throws -> RefreshRotation
    /// Burns an access token id: true the first time only.
    func consumeToken(id: String, expiresAt: Date, now: Date) async throws -> Bool
    /// Whether an access token id was burnt by ``consumeToken(id:expiresAt:now:)`` and its token
    /// has not expired yet (introspection answers such a token inactive).
    func isTokenConsumed(id: String, now: Date) async throws -> Bool

    // MARK: Signing keys

    /// Signing keys, every one ever stored (none is deleted: audit checkpoints a retired key
    /// signed still verify), newest activation first.
    func signingKeys() async throws -> [SigningKeyRecord]
    /// Stores `candidate` unless a key exists already, and returns the newest key either way,
    /// so that instances starting together agree on one key.
    func addSigningKeyIfNone(_ candidate: SigningKeyRecord) async throws -> SigningKeyRecord
    /// Stores `candidate` if `rotation` allows it after the newest key, judged in the
    /// transaction that stores it, so that of several instances due at once one rotates.
    func rotateSigningKey(to candidate: SigningKeyRecord, if rotation: SigningKeyRotation) async throws -> SigningKeyRotationOutcome

    // MARK: Devices

    /// Stores a new activation code. Whether an existing code is still live is judged at
    /// `code.createdAt`.
    /// - Throws: `StoreError.conflict("lookupID")` when a *live* code (unused, unexpired, not
    ///   void) has the same lookup id (a dead one with that id is replaced);
    ///   `StoreError.notFound` when the user does not exist.
    func createActivationCode(_ code: ActivationCodeRecord, maximumTries: Int) async throws
    /// All in one step: finds the live code by `lookupID`, compares `codeHash` (counting a
    /// wrong try, the code becoming void at `maximumTries`), checks the user's device limit
    /// (devices not removed), stores `device` with the code's user as its owner (the record's
    /// `userID` is replaced) and marks the code used.
    /// - Throws: `StoreError.conflict("id")` when the device id is taken (the code stays unused).
    func registerDevice(
        _ device: DeviceRecord, lookupID: String, codeHash: [UInt8], now: Date, maximumTries: Int, maximumDevices: Int
    ) async throws -> DeviceRegistration
    func device(id: String) async throws -> DeviceRecord?
    /// A user's devices, removed ones included, oldest first.
    func devices(userID: String) async throws -> [DeviceRecord]
    /// Moves a device to `status`. A removed device stays removed; setting `.active` clears
    /// `failCount`.
    /// - Returns: the device after the change, or nil when there is no such device.
    @discardableResult
    func setDeviceStatus(id: String, to status: DeviceStatus) async throws -> DeviceRecord?
    /// Gives a device the name its user chose; its status and keys stay as they are.
    /// - Returns: the device after the change, or nil when there is no such device.
    func renameDevice(id: String, to name: String) async throws -> DeviceRecord?
    /// Counts a wrong signature (whatever the status); at `maximumFailures` an active device
    /// becomes blocked.
    /// - Returns: the device after the change, or nil when there is no such device.
    func recordDeviceFailure(id: String, maximumFailures: Int) async throws -> DeviceRecord?
    /// A good signature: `failCount` back to zero and `lastUsedAt` set (a block is not lifted).
    /// - Throws: `StoreError.notFound` when there is no such device.
    func recordDeviceSuccess(id: String, now: Date) async throws
    /// Burns a device signature (by a hash the caller chooses): true the first time only,
    /// until `expiresAt`, after which it is accepted again (and forgotten by
    /// ``forgetUsedSignatures(expiredBefore:)``). The caller binds the hash to
    /// something that expires no later (the challenge), so once is once, ever.
    func markSignatureUsed(_ hash: [UInt8], expiresAt: Date, now: Date) async throws -> Bool

    // MARK: Recovery sheets (v10-recovery-sheets)

    /// Stores `sheet` as its user's only recovery sheet, replacing an earlier one, whose code,
    /// PUKs and counters are gone with it.
    /// - Throws: `StoreError.notFound` when there is no such user; `StoreError.conflict("code")`
    ///   when another user's sheet has the same code digest (nothing is stored).
    func replaceRecoverySheet(_ sheet: RecoverySheetRecord) async throws
    func recoverySheet(userID: String) async throws -> RecoverySheetRecord?
    /// Finds the sheet whose code has `codeDigest`, applies `transition` (one of the pure
    /// `LockoutState` transitions) to its counters and stores them if they changed, in one
    /// transaction, so concurrent recoveries with one sheet, from any instance, are counted one
    /// after the other.
    /// - Returns: the sheet as the transition left it, and its outcome; nil when no sheet has
    ///   this code.
    func updateRecoveryLockout<Outcome: Sendable>(
        codeDigest: [UInt8], _ transition: @escaping @Sendable (inout LockoutState) -> Outcome
    ) async throws -> (sheet: RecoverySheetRecord, outcome: Outcome)?
    /// A recovery whose proofs were right, all in one transaction: burns the PUK after the
    /// `usedPUKs` already burnt (only if the sheet still has exactly that many, so each PUK
    /// works once on every instance), clears the sheet's failures, removes every device of the
    /// sheet's user, stores `device` as theirs (the record's `userID` is replaced) and ends
    /// every session of theirs, writing the back-channel logouts their partners take.
    func completeRecovery(codeDigest: [UInt8], usedPUKs: Int, device: DeviceRecord, now: Date) async throws
        -> RecoveryCompletion

    // MARK: Password reset (v12-password-reset)

    /// A password reset whose proofs were right, all in one transaction: burns the redeemed
    /// PUK when there is one (only if the sheet, which must be the user's, still has exactly
    /// `usedPUKs` burnt, as ``completeRecovery(codeDigest:usedPUKs:device:now:)`` does),
    /// replaces the password, sets or clears the restriction, and ends every session of the
    /// user, writing the back-channel logouts their partners take.
    /// - Throws: `StoreError.notFound` when there is no such user (nothing changed).
    func resetPassword(_ reset: PasswordReset) async throws -> PasswordResetCompletion
    /// Clears the user's restriction if it is still the one that ends at `restrictedUntil`
    /// (a reset meanwhile set another, which an operator has to look at again).
    /// - Returns: whether it was cleared.
    func liftRestriction(userID: String, restrictedUntil: Date) async throws -> Bool

    // MARK: Audit trail

    /// Appends `entry` to the audit trail: assigns the next sequence number, links it to the
    /// last entry's hash and computes its own, all in one write transaction, so that
    /// concurrent appends, from this instance or another on the same database, never fork
    /// or skip a link.
    /// - Returns: the entry as stored.
    func appendAuditEntry(_ entry: AuditEntryDraft) async throws -> AuditEntry
    /// Audit entries with a sequence number above `sequence`, in sequence order, at most
    /// `limit`; when `since` is given, only those at or after that time.
    func auditEntries(after sequence: Int64, since: Date?, limit: Int) async throws -> [AuditEntry]
    /// The audit entries that name `userID`, newest first, at most `limit`; when `sequence` is
    /// given, only those below it (the next page of a timeline).
    func auditEntries(userID: String, before sequence: Int64?, limit: Int) async throws -> [AuditEntry]
    /// The audit entries that match `filter`, at most `limit`, read the way `scan` says (oldest
    /// first after a sequence number, or newest first below one). Each condition is served by
    /// an index (the user's, the event's, the time's), never a scan of the whole trail.
    func auditEntries(matching filter: AuditFilter, _ scan: AuditScan, limit: Int) async throws -> [AuditEntry]
    // The head of the chain in one read, for checkpoints.
    /// The entry with the highest sequence number; nil while the trail is empty.
    func newestAuditEntry() async throws -> AuditEntry?

    // MARK: Rate budgets (v2-rate-limits)

    /// Checks every budget and, only if each has room, counts one use in each, all in one
    /// step across threads and instances; otherwise counts nothing and says when room comes
    /// back. Uses that have left every window are deleted on the way, a bounded batch per call
    /// (`RateBudget.expiredUsesToDelete`), so old counters do not pile up. The rule is
    /// `RateBudget.decide`.
    func consumeRateBudgets(_ budgets: [RateBudget], now: Date) async throws -> RateDecision

    // MARK: Admin keys (v3-admin-keys)

    /// Stores a new admin key.
    /// - Throws: `StoreError.conflict("name")` or `StoreError.conflict("id")` when taken.
    func createAdminKey(_ key: AdminKeyRecord) async throws
    func adminKey(id: String) async throws -> AdminKeyRecord?
    /// Every admin key, revoked ones included, oldest first.
    func adminKeys() async throws -> [AdminKeyRecord]
    /// Marks the key revoked at `now`; revoking again keeps the first date.
    /// - Returns: the key after the change, or nil when there is no such key.
    func revokeAdminKey(id: String, now: Date) async throws -> AdminKeyRecord?
    /// Sets `lastUsedAt` to `now` unless it is later already (the caller decides when to
    /// write: ``AdminKeyRecord/shouldRecordUse(at:)``); an unknown id is ignored.
    func recordAdminKeyUse(id: String, now: Date) async throws
    // MARK: Risk (v3-risk)

    /// Loads the risk state under `key` (``RiskStateValue/keyPrefix`` and an id; a fresh state
    /// when none), applies `transition` (pure) and stores the result if it changed, all in one
    /// transaction: parallel decisions for one user (the low-value counters) run one after
    /// the other, on every instance.
    func updateRiskState<State: RiskStateValue, Outcome: Sendable>(
        key: String, as type: State.Type, _ transition: @escaping @Sendable (inout State) -> Outcome
    ) async throws -> Outcome
    /// The stored text of the risk state under `key` as last committed (nil when none was
    /// stored), read without a write transaction or a lock: for decisions that only look at it
    /// (``riskState(key:as:)``), or that write it back only if it is still this text
    /// (``RiskStateChange``). What must change together with what it read otherwise goes
    /// through ``updateRiskState(key:as:_:)``.
    func riskStateText(key: String) async throws -> String?
    /// Records a payment the risk engine decided on (authorised or not yet).
    /// - Throws: `StoreError.conflict("challengeID")` when its challenge has one already.
    func recordRiskPayment(_ payment: RiskPaymentRecord) async throws
    /// Marks the payment of `challengeID` authorised at `at`, once.
    /// - Returns: the payment as authorised; nil when there is none or it was authorised before.
    func authoriseRiskPayment(challengeID: String, at: Date) async throws -> RiskPaymentRecord?
    /// ``authoriseRiskPayment(challengeID:at:)``, then ``updateRiskState(key:as:_:)`` with what it
    /// returned (nil included), in one write transaction: a payment authorised by SCA
    /// and the state that records it commit together.
    /// - Returns: the payment as authorised; nil when there is none or it was authorised before.
    func authoriseRiskPayment<State: RiskStateValue>(
        challengeID: String, at: Date, updating key: String, as type: State.Type,
        _ transition: @escaping @Sendable (inout State, RiskPaymentRecord?) -> Void
    ) async throws -> RiskPaymentRecord?
    /// A user's payments authorised at or after `since`, newest first.
    func riskPayments(userID: String, since: Date) async throws -> [RiskPaymentRecord]
    /// The aggregates monitoring needs of the user's payments authorised after `query.since`
    /// (equal to ``RiskHistory/init(payments:query:)`` over them), read from running aggregates
    /// kept by the writes that authorise payments (``RiskHistoryTotals``): its cost does not
    /// grow with the user's payments.
    func riskHistory(_ query: RiskHistoryQuery) async throws -> RiskHistory
    /// The most recent authorised payment with this transaction digest.
    func riskPayment(transactionDigest: String) async throws -> RiskPaymentRecord?
    /// EUR minor units of the payments authorised in `[from, to)` that count for the fraud
    /// rate (``RiskPaymentRecord/countsForFraudRate``), per type (absent: none or zero), exact
    /// for any range and read from running totals, whatever the number of payments.
    func riskPaymentVolume(from: Date, to: Date) async throws -> [PaymentType: Int64]
    /// The payments let through without SCA (those with an exemption) authorised in
    /// `[from, to)`, counted per UTC day and exemption, oldest day first: read from an index
    /// of exempted payments by time, so the cost follows the range asked for, not the table.
    func exemptionsGranted(from: Date, to: Date) async throws -> [ExemptionTally]
    /// Records a fraud report and adds it to the total of the day it occurred, in one write.
    /// - Throws: `StoreError.conflict("transactionDigest")` when that `txn` was reported already.
    func addFraudReport(_ report: FraudReportRecord) async throws
    /// EUR minor units reported fraudulent for payments that occurred in `[from, to)`, per type:
    /// whole UTC days from per-day totals kept with the reports, the edges from the reports
    /// (``RiskDay/span(from:to:)``).
    func fraudVolume(from: Date, to: Date) async throws -> [PaymentType: Int64]
    // MARK: Partner clients, authorization codes, consents (v3-partners)

    /// - Throws: `StoreError.conflict("id")` when the client id exists.
    func createPartnerClient(_ client: PartnerClientRecord) async throws
    func partnerClient(id: String) async throws -> PartnerClientRecord?
    /// All partner clients, oldest first.
    func partnerClients() async throws -> [PartnerClientRecord]
    /// Removes the client and, in the same write, ends every session issued to it
    /// (`SessionRecord/clientID`), so none of its tokens works any longer on any instance.
    /// - Returns: false when there is no such client.
    func removePartnerClient(id: String, now: Date) async throws -> Bool
    /// - Throws: `StoreError.conflict("code")` when the code hash exists.
    func insertAuthorizationGrant(_ grant: AuthorizationGrantRecord) async throws
    /// Marks the grant of `codeHash` redeemed at `now`, once: the first caller gets
    /// `.redeemed`, every later one `.alreadyRedeemed` (whether it expired is the caller's call).
    func redeemAuthorizationCode(codeHash: [UInt8], now: Date) async throws -> CodeRedemption
    /// The grant whose code opened `sessionID` (so the client a token was issued to is known).
    func authorizationGrant(sessionID: String) async throws -> AuthorizationGrantRecord?
    /// Stores a new consent and, in the same write transaction, appends `entry` (its
    /// `consent.changed`), as ``insertChallenge(_:auditing:)`` does: both or neither.
    /// - Throws: `StoreError.conflict("id")` (and nothing is stored) when the consent id exists.
    func insertConsent(_ consent: ConsentRecord, auditing entry: AuditEntryDraft) async throws
    func consent(id: String) async throws -> ConsentRecord?
    /// Compare-and-set: stores `consent` with version `expectedVersion + 1` only if the stored
    /// version is still `expectedVersion`.
    /// - Returns: false when another update came first.
    func updateConsent(_ consent: ConsentRecord, expectedVersion: Int) async throws -> Bool
    /// The consent with its partner's name, its user, its challenge and the user's devices, in
    /// one read: all the hosted page needs to show it.
    /// - Returns: nil when there is no such consent.
    func consentContext(id: String) async throws -> ConsentContext?
    // MARK: Passkeys (v3-passkeys)

    /// Stores `passkey` unless its credential id is registered already or its user has
    /// `maximumPerUser` passkeys, decided with the user's registrations serialised
    /// (`PasskeyRegistration.decide`).
    func registerPasskey(_ passkey: PasskeyRecord, maximumPerUser: Int) async throws -> PasskeyRegistration
    func passkey(id: String) async throws -> PasskeyRecord?
    func passkey(credentialID: [UInt8]) async throws -> PasskeyRecord?
    /// A user's passkeys, oldest first.
    func passkeys(userID: String) async throws -> [PasskeyRecord]
    /// - Returns: false when there is no such passkey.
    func deletePasskey(id: String) async throws -> Bool
    /// Compare-and-set after a verified assertion: stores `signCount`, `backedUp` and
    /// `lastUsedAt` only if the passkey is still active with the counter `expectedSignCount`,
    /// so of two assertions checked against the same counter only one is accepted.
    /// - Returns: false when the passkey changed meanwhile (or is gone, or suspect).
    func recordPasskeyUse(
        id: String, expectedSignCount: Int64, signCount: Int64, backedUp: Bool, now: Date
    ) async throws -> Bool
    /// Marks a passkey suspect (its counter went backwards).
    /// - Returns: the passkey after the change, or nil when there is no such passkey.
    func markPasskeySuspect(id: String) async throws -> PasskeyRecord?

    // MARK: Decoupled operations (v3-operations)

    /// - Throws: `StoreError.conflict("id")` when the id exists.
    func insertOperation(_ operation: OperationRecord) async throws
    func operation(id: String) async throws -> OperationRecord?
    /// The operations still `pending` for `deviceID` with `expiresAt` after `now`, oldest first.
    func pendingOperations(deviceID: String, now: Date) async throws -> [OperationRecord]
    /// Compare-and-set: stores `operation` with version `expectedVersion + 1` only if the stored
    /// version is still `expectedVersion` (the move itself is `OperationRecord.finish`).
    /// - Returns: false when another update came first.
    func updateOperation(_ operation: OperationRecord, expectedVersion: Int) async throws -> Bool
    /// Whether `userID` ever signed in to the partner client `clientID` (an authorization code
    /// was granted), which is what lets that client create operations for the user.
    func hasAuthorizationGrant(clientID: String, userID: String) async throws -> Bool

    // MARK: Partner webhooks (v3-partner-webhooks)

    /// Sets (or replaces) the client's webhook.
    func setPartnerWebhook(_ webhook: PartnerWebhookRecord) async throws
    func partnerWebhook(clientID: String) async throws -> PartnerWebhookRecord?
    /// - Returns: false when the client had none.
    func removePartnerWebhook(clientID: String) async throws -> Bool
    /// - Throws: `StoreError.conflict("id")` when the id exists.
    func insertWebhookDelivery(_ delivery: WebhookDeliveryRecord) async throws
    func webhookDelivery(id: String) async throws -> WebhookDeliveryRecord?
    /// Pending deliveries with `nextAttemptAt` at or before `now` and no lease after `now`,
    /// oldest first, at most `limit` (claiming one is ``updateWebhookDelivery(_:expectedVersion:)``).
    func dueWebhookDeliveries(now: Date, limit: Int) async throws -> [WebhookDeliveryRecord]
    /// The client's deliveries that failed, newest first, at most `limit`: given up, or pending
    /// after a failed attempt (a first attempt still to come is no failure).
    func failedWebhookDeliveries(clientID: String, limit: Int) async throws -> [WebhookDeliveryRecord]
    /// What the client holds and what waits for it (v13-partner-health), counting sessions
    /// used at or after `activeSince`.
    func partnerActivity(clientID: String, activeSince: Date) async throws -> PartnerActivity
    /// Compare-and-set, as ``updateOperation(_:expectedVersion:)``.
    func updateWebhookDelivery(_ delivery: WebhookDeliveryRecord, expectedVersion: Int) async throws -> Bool
    /// Operations still `pending` with `expiresAt` at or before `now`, oldest first, at most
    /// `limit`: the sweep expires them so their final status is announced.
    func overdueOperations(now: Date, limit: Int) async throws -> [OperationRecord]

    // MARK: Proofs in one transaction

    /// Applies everything one proof changes in one write transaction, or nothing: the lockout
    /// plan (refused: `.refused`), the challenge's compare-and-set (lost: `.versionConflict`;
    /// it carries a device signature's burn), the one-time factor's use (used or
    /// replaced since it was read: `.factorUsed`), the device's outcome, the session a
    /// completing proof opens, and the audit entries, appended in order as
    /// ``appendAuditEntry(_:)`` would, serialised with every other append. Each part keeps the
    /// once-only guarantee of its single operation, across threads and instances.
    ///
    /// A completion's risk records (``ProofCommit/risk``: the payment authorised, the state
    /// that records it) are written with a committed proof: in its transaction on SQLite; on
    /// PostgreSQL, whose proof is one statement (`sca_commit_proof`) where it can be, in a
    /// transaction of their own right after it. A failure of that later transaction is logged,
    /// not thrown: the proof stands, and it only means more SCA later.
    func commitProof(_ commit: ProofCommit) async throws -> ProofCommitResult
    /// The challenge with its user and the device it names, in one read.
    /// - Returns: nil when there is no such challenge.
    func proofContext(challengeID: String) async throws -> ProofContext?

    // MARK: Opening a challenge in one read and one write

    /// The user `user` names and the device `deviceID` names, in one read; nil parts for what
    /// is not named or not found.
    func challengeContext(user: UserLookup?, deviceID: String?) async throws -> ChallengeContext
    /// ``insertChallenge(_:)`` and, in the same write transaction, the append of `entries` in
    /// order (as ``appendAuditEntry(_:)`` would, serialised with every other append): all or
    /// nothing. A payment's risk decision and its challenge's creation are one write.
    /// - Returns: the entries appended.
    /// - Throws: `StoreError.conflict("id")` (and nothing is stored) when a challenge with this id exists.
    /// With `admission`, a payment's risk decision is written too: its state change, if any,
    /// only while the stored state is still the text the decision read; then its payment (with
    /// the running aggregates of an authorised one). With `opening`, the session of a
    /// challenge stored completed (an exemption's) is created in the same write.
    /// - Throws: `StoreError.conflict("riskState")` (nothing stored) when the state changed
    ///   since it was read: decide again from what is stored now.
    func insertChallenge(
        _ challenge: ChallengeRecord, auditing entries: [AuditEntryDraft], admitting admission: RiskAdmission?,
        opening: SessionOpening?
    ) async throws -> [AuditEntry]

    // MARK: Status changes with their webhook event (v3-webhook-events)

    /// ``updateOperation(_:expectedVersion:)`` and, in the same transaction, the outbox writes
    /// that `WebhookDeliveryRecord.toEnqueue` decides: each of `events` is stored iff the
    /// compare-and-set won and its client has the address of its kind (so no crash separates
    /// the two).
    /// - Throws: `StoreError.conflict("id")` (and nothing is stored) when an event id exists.
    func updateOperation(_ operation: OperationRecord, expectedVersion: Int, enqueueing events: [WebhookDeliveryRecord])
        async throws -> Bool
    /// ``updateConsent(_:expectedVersion:)`` with its event, as
    /// ``updateOperation(_:expectedVersion:enqueueing:)``, and its audit entry: `entry` is
    /// appended in the same transaction iff the compare-and-set won, so a status change is
    /// never without its record (nor a record without its change).
    func updateConsent(
        _ consent: ConsentRecord, expectedVersion: Int, enqueueing event: WebhookDeliveryRecord?,
        auditing entry: AuditEntryDraft?
    ) async throws -> Bool
    /// Consents still open (`Created`, `Started`) with `expiresAt` at or before `now`, oldest
    /// first, at most `limit`: the sweep expires them so their expiry is announced.
    func overdueConsents(now: Date, limit: Int) async throws -> [ConsentRecord]

    // MARK: Used signatures' sweep

    /// Forgets the burnt signatures (``markSignatureUsed(_:expiresAt:now:)``) whose expiry is
    /// before `now`, which are accepted again anyway: a periodic sweep, so that a burn is one
    /// write and the table does not grow without end.
    /// - Returns: how many were forgotten.
    @discardableResult
    func forgetUsedSignatures(expiredBefore now: Date) async throws -> Int

    // MARK: Retention and erasure

    /// Deletes what ``RetentionPlan`` names, at most its batch size of each kind.
    func purge(_ plan: RetentionPlan) async throws -> RetentionReport

    /// The newest cut of the audit trail, nil when it was never cut.
    func auditCut() async throws -> AuditCut?

    /// Records `cut` and deletes the entries up to its sequence, in one transaction, when the
    /// entry at that sequence is still there with the cut's hash and the trail was not cut
    /// there or later meanwhile (another instance's pass). Entries can leave the trail no
    /// other way.
    /// - Returns: how many entries were deleted; nil when the precondition failed.
    func cutAuditTrail(_ cut: AuditCut) async throws -> Int?

    /// Erases a user in one transaction: their row and everything hanging off it (devices,
    /// passkeys, sessions and tokens, challenges and codes, consents, operations, grants,
    /// activation codes, the recovery sheet, per-user risk figures and the keyed states in
    /// `stateKeys`); their payments stay for the fraud-rate figures with payer, address,
    /// device and IBAN cleared; their sealed audit entries lose their personal facts.
    /// - Returns: nil when there is no such user.
    func eraseUser(id: String, stateKeys: [String]) async throws -> UserErasure?

    // MARK: Health

    /// Throws when the database cannot be reached.
    func checkHealth() async throws
}

extension SCAStore {
    /// ``insertChallenge(_:auditing:admitting:opening:)`` of a challenge no payment's decision
    /// or session rides with.
    package func insertChallenge(_ challenge: ChallengeRecord, auditing entries: [AuditEntryDraft]) async throws -> [AuditEntry] {
        try await insertChallenge(challenge, auditing: entries, admitting: nil, opening: nil)
    }

    /// The risk state under `key` as last committed (a fresh state when none): ``riskStateText(key:)`` decoded.
    package func riskState<State: RiskStateValue>(key: String, as type: State.Type) async throws -> State {
        try RiskStateCodec.decode(try await riskStateText(key: key), as: State.self)
    }

    /// Audit entries with a sequence number above `sequence`, in sequence order, at most `limit`.
    package func auditEntries(after sequence: Int64, limit: Int) async throws -> [AuditEntry] {
        try await auditEntries(after: sequence, since: nil, limit: limit)
    }

    /// The first page of an operator's search.
    package func findUsers(_ search: UserSearch, limit: Int) async throws -> [UserRecord] {
        try await findUsers(search, after: nil, limit: limit)
    }
}
