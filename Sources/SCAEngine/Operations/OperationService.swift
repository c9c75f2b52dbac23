import Foundation
import Logging
import SCACore
import SCAStorage
import ServiceLifecycle

/// Decoupled operations: a backend asks the user's bound phone to approve a login,
/// a payment or a settings change; the phone approves with its device key and biometric key,
/// or rejects with a reason.
///
/// Each operation owns an operation-scoped challenge (with the transaction for a payment, and
/// the operation's lifetime), and an approval submits its two signatures to that challenge
/// through ``ChallengeService``: counters, lockout, dynamic linking and token issuance are the
/// challenge engine's, not a second verifier's. Moves are the pure `OperationRecord.finish`,
/// stored by compare-and-set, so each operation reaches exactly one final status.
package struct OperationService: EngineService, Sendable {
    package let context: EngineContext
    let challenges: ChallengeService
    /// Where the push notification of a new operation goes (the outbox in development).
    let messages: MessageDispatcher
    /// Where the final status of a partner's operation is announced (the webhook outbox).
    let webhooks: WebhookService
    /// `pushNeutralText`: a payment's push names neither amount nor payee (the gateway is a
    /// third party); the phone shows them once it fetches the operation.
    var neutralPushText = false

    package static let sealingContext = "operation-token"
    package static let defaultLifetime = 300
    package static let maximumLifetime = 900
    package static let maxBindingMessageLength = 64
    /// Failed approval attempts (on the operation's challenge) after which the operation is `failed`.
    static let maxFailedAttempts = 5
    /// The operations a phone can approve.
    static let kinds: [OperationKind] = [.login, .payment, .settingsChange]

    // MARK: Backend

    /// `POST /v1/operations`.
    /// - Parameter scopes: what a partner's approved login grants it (CIBA's scopes); none for
    ///   a payment or a change, whose token serves that one operation.
    /// - Throws: `Problem` 400 for bad input (nothing is stored), 403
    ///   `partner.operation_not_grantable` for what a partner may never ask, 404
    ///   `user.not_found` (also for a user who never signed in to the calling partner), 409
    ///   `operation.no_device`.
    /// - Parameter notificationToken: CIBA ping mode: the client's token for its notification
    ///   endpoint; the operation keeps it, sealed, with the request's `auth_req_id`.
    package func create(
        _ request: CreateOperationRequest, by caller: OperationCaller, scopes: [String] = [], notificationToken: String? = nil
    ) async throws -> OperationResponse {
        guard Self.kinds.contains(request.operation) else {
            // Binding a device, a beneficiary or access to the account are the user's own,
            // asked in the bank's app: a partner is told so, not that its input was malformed.
            if caller.clientID != nil { throw Problem.operationNotGrantable(request.operation.rawValue) }
            throw Problem.invalidRequest("operation must be login, payment or settings_change")
        }
        var transaction: Transaction?
        if request.operation == .payment {
            guard let requested = request.transaction else { throw Problem.invalidRequest("payment needs a transaction") }
            switch TransactionRules.normalized(requested) {
            case .success(let normalized): transaction = normalized
            case .failure(let violation): throw Problem.invalidRequest("transaction: \(violation.reason)")
            }
        } else if request.transaction != nil {
            throw Problem.invalidRequest("transaction is only allowed for payment")
        }
        var bindingMessage: String?
        if let message = request.bindingMessage {
            switch DisplayText.normalized(message, field: "bindingMessage", maxLength: Self.maxBindingMessageLength) {
            case .success(let normalized): bindingMessage = normalized
            case .failure(let violation): throw Problem.invalidRequest(violation.reason)
            }
        }
        let lifetime = request.expiresIn ?? Self.defaultLifetime
        guard (1...Self.maximumLifetime).contains(lifetime) else {
            throw Problem.invalidRequest("expiresIn must be 1 to \(Self.maximumLifetime) seconds")
        }
        // Its own budget per backend, not the client address's challenge budget.
        try await challenges.limiter.admitOperation(by: caller.clientID.map { "client:\($0)" } ?? AuditTrail.actor ?? "admin")
        let user = try await findUser(request.user)
        let operationID = runtime.makeID(prefix: "op")
        var delegation: Delegation?
        if let clientID = caller.clientID {
            // Only users who signed in to this client: anyone else answers as an unknown user.
            guard try await store.hasAuthorizationGrant(clientID: clientID, userID: user.id),
                let client = try await store.partnerClient(id: clientID)
            else { throw Problem.userNotFound }
            delegation = Delegation(
                clientID: clientID, clientName: client.name, scopes: request.operation == .login ? scopes : [],
                grant: .operation(id: operationID), summary: bindingMessage)
        }
        let notification = try notificationToken.map {
            try CIBANotification(
                token: $0, authReqID: CIBARequestID.make(operationID: operationID, scopes: scopes, box: box)
            ).sealed(with: box)
        }
        let record = try await open(
            userID: user.id, operation: request.operation, transaction: transaction, bindingMessage: bindingMessage,
            lifetime: lifetime, delegation: delegation, admitted: true, id: operationID, notification: notification)
        return try describe(record)
    }

    /// The device an operation for `userID` is asked of: the active one with a biometric key
    /// used most recently (nil when there is none).
    package func approvingDevice(userID: String) async throws -> DeviceRecord? {
        Self.approvingDevice(among: try await store.devices(userID: userID))
    }

    /// ``approvingDevice(userID:)`` among the user's devices as the caller read them.
    package static func approvingDevice(among devices: [DeviceRecord]) -> DeviceRecord? {
        devices
            .filter { $0.status == .active && $0.biometryKey != nil }
            .max { ($0.lastUsedAt ?? $0.createdAt, $0.createdAt) < ($1.lastUsedAt ?? $1.createdAt, $1.createdAt) }
    }

    /// Opens an operation of validated input for `userID` on its own device-bound challenge
    /// and pushes it: what `POST /v1/operations` and the hosted consent page share.
    /// - Parameters:
    ///   - lifetime: seconds, 1 to ``maximumLifetime``.
    ///   - delegation: the partner the operation is for (its token is the partner's alone);
    ///     nil for the bank's own backend.
    ///   - admitted: counted already in the caller's operation budget; false counts the
    ///     operation's challenge in the per-address challenge budget instead.
    ///   - id: the operation's id, when the caller named it already (in its delegation).
    ///   - notification: a sealed ``CIBANotification``, for a client in CIBA ping mode.
    /// - Throws: 409 `operation.no_device` when there is no device to ask or the policy cannot
    ///   be met with its two keys.
    package func open(
        userID: String, operation kind: OperationKind, transaction: Transaction?, bindingMessage: String?, lifetime: Int,
        delegation: Delegation?, admitted: Bool, id: String? = nil, notification: [UInt8]? = nil
    ) async throws -> OperationRecord {
        guard let device = try await approvingDevice(userID: userID) else { throw Problem.operationNoDevice }
        let opened = try await challenges.create(
            CreateChallengeRequest(
                operation: kind, user: UserReference(userId: userID), device: DeviceReference(deviceId: device.id),
                transaction: transaction),
            admitted: admitted, delegation: delegation)
        let offered = Set(opened.methods.map(\.id))
        guard opened.state == .pending, offered.isSuperset(of: [.deviceKey, .biometricKey]), opened.requiredCategories <= 2 else {
            _ = try? await challenges.cancel(opened.challengeId)
            throw Problem(
                status: 409, code: .operationNoDevice, title: "No device to ask",
                detail: "The policy for \(kind.rawValue) cannot be met with the device key and biometric key.")
        }
        let now = runtime.now()
        let expiresAt = now.addingTimeInterval(TimeInterval(lifetime))
        try await alignChallenge(opened.challengeId, expiresAt: expiresAt)
        let clientID = delegation?.clientID
        let record = OperationRecord(
            id: id ?? runtime.makeID(prefix: "op"), userID: userID, clientID: clientID, deviceID: device.id,
            challengeID: opened.challengeId, operation: kind, transaction: transaction,
            bindingMessage: bindingMessage, createdAt: now, expiresAt: expiresAt, sealedNotification: notification)
        try await store.insertOperation(record)
        logger.info("operation created", metadata: ["operation": "\(record.id)", "kind": "\(record.operation.rawValue)"])
        await audit.record(
            .operationCreated, userID: userID, deviceID: device.id, challengeID: record.challengeID,
            operation: record.operation, details: ["operationId": record.id, "clientId": clientID ?? "-"])
        await notify(record, delegation: delegation)
        return record
    }

    /// Pushes "an operation is waiting" to the device, in the user's language. Best effort: a
    /// push gateway that fails does not undo the operation (the phone finds it with
    /// `GET /v1/operations/pending`), and neither does a profile that cannot be read (the push
    /// is then in the default language).
    private func notify(_ operation: OperationRecord, delegation: Delegation?) async {
        let profile = (try? await store.user(id: operation.userID))?.profile
        let text = messageText(locale: profile?.locale, zoneinfo: profile?.zoneinfo)
            .push(for: operation, delegation: delegation, neutral: neutralPushText)
        // Delivered in the background: creating the operation does not wait for the
        // push gateway; a failure is audited `message.delivery_failed`.
        await messages.submit(QueuedMessage(
            OutboundMessage(channel: .push, to: operation.deviceID, text: text, sentAt: runtime.now(), operationId: operation.id),
            purpose: .operationPush, userID: operation.userID, challengeID: operation.challengeID))
    }

    /// `GET /v1/operations/{id}`: expired first if its time is up.
    package func get(_ id: String, by caller: OperationCaller) async throws -> OperationResponse {
        try describe(try await owned(id, by: caller))
    }

    /// `DELETE /v1/operations/{id}`.
    /// - Throws: 409 `operation.closed` when it is final already.
    package func cancel(_ id: String, by caller: OperationCaller) async throws -> OperationResponse {
        let operation = try await owned(id, by: caller)
        let canceled = try await finish(operation, as: .canceled)
        _ = try? await challenges.cancel(canceled.challengeID)
        return try describe(canceled)
    }

    // MARK: Phone

    /// The operations waiting for `device`, oldest first.
    func pending(for device: DeviceRecord) async throws -> PendingOperationsResponse {
        var pending: [PendingOperation] = []
        for operation in try await store.pendingOperations(deviceID: device.id, now: runtime.now()) {
            guard let challenge = try await store.challenge(id: operation.challengeID) else { continue }
            pending.append(
                PendingOperation(
                    operationId: operation.id, operation: operation.operation, transaction: operation.transaction,
                    bindingMessage: operation.bindingMessage, expiresAt: operation.expiresAt, challengeId: challenge.id,
                    nonce: challenge.nonce, transactionDigest: challenge.transactionDigest))
        }
        return PendingOperationsResponse(operations: pending)
    }

    /// Like ``pending(for:)``, but when there is none holds the request for up to `wait` seconds
    /// until one appears (``ServerRuntime/hold(upTo:until:)``). A graceful shutdown answers at
    /// once with an empty list.
    func waitForPending(for device: DeviceRecord, wait: Int) async throws -> PendingOperationsResponse {
        let found = try await runtime.hold(upTo: wait) {
            let pending = try await pending(for: device)
            return pending.operations.isEmpty ? nil : pending
        }
        return found ?? PendingOperationsResponse(operations: [])
    }

    /// `POST /v1/operations/{id}/approve`: submits the device-key then the biometric-key
    /// signature to the operation's challenge. On completion the operation-scoped token is
    /// sealed into the operation for its creator; the phone gets only the status.
    /// - Throws: what the challenge answers (401 `sca.proof_rejected` /
    ///   `sca.authentication_failed`, 409 `sca.code_already_used` for a replay, 423, 403 for a
    ///   blocked device); after the fifth failed attempt, a blocked device or a locked user the
    ///   operation is `failed`. 404 for an operation not asked of this device.
    func approve(_ id: String, by device: DeviceRecord, _ request: ApproveOperationRequest) async throws -> OperationDecisionResponse {
        let operation = try await addressed(id, to: device, action: "approve")
        do {
            _ = try await challenges.submit(
                ProofRequest(method: .deviceKey, deviceId: device.id, signature: request.deviceKeySignature),
                to: operation.challengeID)
            let second = try await challenges.submit(
                ProofRequest(method: .biometricKey, deviceId: device.id, signature: request.biometricKeySignature),
                to: operation.challengeID)
            guard let tokens = second.tokens else { throw Problem.contention }
            // A partner's operation keeps only a token that is the partner's own.
            if let clientID = operation.clientID { _ = try await challenges.tokens.handOff(tokens.accessToken, to: clientID) }
            let sealed = try box.seal(Array(tokens.accessToken.utf8), context: Self.sealingContext)
            let approved = try await finish(operation, as: .approved, sealedToken: sealed)
            return OperationDecisionResponse(operationId: approved.id, status: approved.status)
        } catch let problem as Problem {
            if [.proofRejected, .authenticationFailed, .userLocked, .deviceBlocked, .deviceRemoved, .challengeFailed]
                .contains(problem.code)
            {
                await failIfExhausted(operation.id, lockedOut: problem.code != .proofRejected && problem.code != .authenticationFailed)
            }
            throw problem
        }
    }

    /// `POST /v1/operations/{id}/reject`. `not_me` is recorded as a fraud signal as well.
    func reject(_ id: String, by device: DeviceRecord, reason: OperationRejectReason) async throws -> OperationDecisionResponse {
        let operation = try await addressed(id, to: device, action: "reject")
        let rejected = try await finish(operation, as: .rejected, reason: reason)
        _ = try? await challenges.cancel(rejected.challengeID)
        if reason == .notMe {
            logger.notice("operation rejected as not started by the user", metadata: ["operation": "\(rejected.id)"])
            await audit.record(
                .operationFraudSignal, outcome: "not_me", userID: rejected.userID, deviceID: device.id,
                challengeID: rejected.challengeID, operation: rejected.operation,
                details: ["operationId": rejected.id, "clientId": rejected.clientID ?? "-"])
            // A fraud signal for the risk engine: the user's next operations raise
            // `reported_not_me` and go with SCA (`notMeSignalDays`).
            let now = runtime.now()
            do {
                _ = try await store.updateRiskState(key: RiskState.keyPrefix + rejected.userID, as: RiskState.self) {
                    $0.notMeReportedAt = now
                }
            } catch {
                logger.error("not_me signal not stored", metadata: ["operation": "\(rejected.id)", "error": "\(type(of: error))"])
            }
        }
        return OperationDecisionResponse(operationId: rejected.id, status: rejected.status)
    }

    // MARK: Moves

    /// The operation, expired first if its time is up.
    /// - Throws: `Problem.operationNotFound`.
    package func load(_ id: String) async throws -> OperationRecord {
        guard InputRules.isWellFormedID(id, prefix: "op"), let operation = try await store.operation(id: id) else {
            throw Problem.operationNotFound
        }
        var probe = operation
        if probe.expireIfDue(now: runtime.now()) {
            return (try? await finish(operation, as: .expired)) ?? operation
        }
        return operation
    }

    /// Moves the operation to the final `status`, retrying on a concurrent change, and records it.
    /// - Throws: 409 `operation.closed` when it is final already (or expired meanwhile).
    @discardableResult
    func finish(
        _ loaded: OperationRecord, as status: OperationStatus, reason: OperationRejectReason? = nil,
        sealedToken: [UInt8]? = nil
    ) async throws -> OperationRecord {
        let reload = { [store] in
            guard let reloaded = try await store.operation(id: loaded.id) else { throw Problem.operationNotFound }
            return reloaded
        }
        return try await CompareAndSet.retrying(from: loaded, reload: reload) { operation in
            var next = operation
            let now = runtime.now()
            guard next.finish(as: status, reason: reason, sealedToken: sealedToken, now: now) else {
                var expired = operation
                if status != .expired, expired.expireIfDue(now: now) {
                    let closed = try await finish(operation, as: .expired)
                    throw Problem.operationClosed(closed.status)
                }
                throw Problem.operationClosed(operation.status)
            }
            // The status and its webhook event (and ping) are one store operation: no crash between them.
            guard try await store.updateOperation(next, expectedVersion: operation.version, enqueueing: webhooks.events(for: next))
            else { return nil }
            next.version += 1
            logger.info("operation finished", metadata: ["operation": "\(next.id)", "status": "\(status.rawValue)"])
            var details = ["operationId": next.id, "clientId": next.clientID ?? "-"]
            if let reason = next.rejectReason { details["reason"] = reason.rawValue }
            await audit.record(
                .operationFinished, outcome: status.rawValue, userID: next.userID, deviceID: next.deviceID,
                challengeID: next.challengeID, operation: next.operation, details: details)
            return next
        }
    }

    // MARK: Helpers

    /// After a refused approval: `failed` when the challenge has had its last attempt, or the
    /// device or user can no longer sign (`lockedOut`, or the device blocked by this failure).
    private func failIfExhausted(_ id: String, lockedOut: Bool) async {
        guard let operation = try? await store.operation(id: id), operation.status == .pending else { return }
        let challenge = try? await store.challenge(id: operation.challengeID)
        let device = try? await store.device(id: operation.deviceID)
        let exhausted = (challenge?.failedAttempts ?? 0) >= Self.maxFailedAttempts
        guard lockedOut || exhausted || device?.status != .active else { return }
        _ = try? await finish(operation, as: .failed)
        _ = try? await challenges.cancel(operation.challengeID)
    }

    /// An operation asked of `device`: another user's or device's answers as an unknown one,
    /// and the attempt is recorded.
    private func addressed(_ id: String, to device: DeviceRecord, action: String) async throws -> OperationRecord {
        let operation = try await load(id)
        guard operation.userID == device.userID, operation.deviceID == device.id else {
            await audit.record(
                .operationRefused, outcome: "not_addressed", userID: device.userID, deviceID: device.id,
                details: ["operationId": operation.id, "action": action])
            throw Problem.operationNotFound
        }
        guard operation.status == .pending else {
            await audit.record(
                .operationRefused, outcome: operation.status.rawValue, userID: device.userID, deviceID: device.id,
                details: ["operationId": operation.id, "action": action])
            throw Problem.operationClosed(operation.status)
        }
        return operation
    }

    /// An operation `caller` may see: another client's answers as an unknown one would.
    private func owned(_ id: String, by caller: OperationCaller) async throws -> OperationRecord {
        let operation = try await load(id)
        if let clientID = caller.clientID, operation.clientID != clientID { throw Problem.operationNotFound }
        return operation
    }

    /// The challenge lives as long as the operation (not the shorter challenge lifetime), so an
    /// approval is possible until the operation expires and not after.
    private func alignChallenge(_ challengeID: String, expiresAt: Date) async throws {
        let reload = { [store] in
            guard let challenge = try await store.challenge(id: challengeID) else { throw Problem.challengeNotFound }
            return challenge
        }
        try await CompareAndSet.retrying(reload: reload) { challenge in
            var aligned = challenge
            aligned.expiresAt = expiresAt
            return try await store.updateChallenge(aligned, expectedVersion: challenge.version) ? () : nil
        }
    }

    private func findUser(_ reference: UserReference) async throws -> UserRecord {
        let found: UserRecord?
        switch (reference.email, reference.userId) {
        case (let email?, nil):
            let normalized = InputRules.normalizedEmail(email)
            if let problem = InputRules.emailProblem(normalized) { throw Problem.invalidRequest("user.\(problem)") }
            found = try await store.user(email: normalized)
        case (nil, let userID?):
            guard InputRules.isWellFormedID(userID, prefix: "usr") else { throw Problem.invalidRequest("user.userId is malformed") }
            found = try await store.user(id: userID)
        default:
            throw Problem.invalidRequest("user must have exactly one of email and userId")
        }
        guard let found else { throw Problem.userNotFound }
        return found
    }

    package func describe(_ operation: OperationRecord) throws -> OperationResponse {
        var accessToken: String?
        if operation.status == .approved, let sealed = operation.sealedToken {
            accessToken = String(decoding: try box.open(sealed, context: Self.sealingContext), as: UTF8.self)
        }
        return OperationResponse(
            operationId: operation.id, status: operation.status, operation: operation.operation,
            expiresAt: operation.expiresAt, bindingMessage: operation.bindingMessage,
            rejectReason: operation.rejectReason, accessToken: accessToken)
    }
}
