import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// A proof's commit in one statement (schema step `v3-proof-fold`): the function
// `sca_commit_proof` runs what `lockedCommit` sends one by one, in the same order and so with
// the same locks, inside the statement's own transaction, and answers with the audit links.
// A failed check raises an error of its own SQLSTATE, which undoes everything the statement did
// (PostgreSQL rolls a failed statement back whole) and names the refusal.
//
// The lockout plan is still decided here, in pure code (`LockoutState.apply`), on the counters
// the caller read (`LockoutChange.observed`, else one read): the function locks the user's row,
// checks the counters still equal them and writes the result, or refuses with the counters as
// they are, and the plan is applied to those and sent again. The outcome is the plan applied
// to the locked counters, as in the transaction.
extension PostgresStore {
    /// SQLSTATEs `sca_commit_proof` raises.
    private enum FoldRefusal: String {
        case versionConflict = "SCA01"
        // SCA02 was a burnt signature's (v3-proof-fold); burns are part of the challenge now.
        case factorUsed = "SCA03"
        case countersChanged = "SCA04"
        case notFound = "SCA05"
    }

    /// How often the counters are decided again when they changed under the commit, before the
    /// commit takes the locked transaction (a contended user: that one waits its turn instead).
    private static let foldAttempts = 3

    /// The commit in one round trip (or a few, when the counters keep changing), or nil when it
    /// takes ``lockedCommit(_:)``: a device's failure and an unknown address's counters (read
    /// and decided under their lock there), a consent's event to another address than its
    /// webhook, a plan that refuses the attempt on the counters seen (decided on the locked
    /// row instead), or counters that kept changing.
    func foldedCommit(_ commit: ProofCommit) async throws -> ProofCommitResult? {
        if case .failure? = commit.device { return nil }
        // A consent's event to any address but the webhook: decided in the transaction.
        if let kind = commit.consent?.event?.kind, kind != .event { return nil }
        var counters: LockoutState?
        if let change = commit.lockout {
            guard case .user(let userID) = change.subject else { return nil }
            if let observed = change.observed {
                counters = observed
            } else {
                let row = try await rows(
                    """
                    SELECT failed_attempts, temporary_blocks, locked_until, permanently_locked, last_totp_step
                    FROM users WHERE id = \(userID)
                    """
                ).first
                guard let row else { throw StoreError.notFound }
                counters = try LockoutState(row: row)
            }
        }
        let parts = commit.audit.map(AuditEntry.canonicalParts)
        let entries = commit.audit.isEmpty ? nil : try Self.appendArgument(commit.audit, parts: parts)
        let consentParts = commit.consent.map { AuditEntry.canonicalParts(of: $0.audit) }
        // Everything but the lockout, which each attempt decides again.
        var proof = try Self.foldArgument(commit)
        if let change = commit.consent, let consentParts {
            proof.add("consent", try Self.consentArgument(change, parts: consentParts))
        }
        for _ in 0..<Self.foldAttempts {
            var step: LockoutStep?
            var argument = proof
            if let change = commit.lockout, case .user(let userID) = change.subject, let before = counters {
                var after = before
                let applied = after.apply(change.plan)
                if case .refused = applied { return nil }
                step = applied
                argument.add("lockout", Self.lockoutArgument(userID: userID, before: before, after: after))
            }
            let query: PostgresQuery = """
                SELECT entry_sequence, entry_prev_hash, entry_hash FROM sca_commit_proof(\(argument.text), \(entries))
                """
            do {
                let linked = try await rows(query)
                // The consent's entry is linked last, and only when its compare-and-set won.
                if let change = commit.consent, let consentParts, linked.count == commit.audit.count + 1 {
                    let entries = try Self.entries(commit.audit + [change.audit], parts: parts + [consentParts], linkedBy: linked)
                    return .committed(lockout: step, device: nil, audit: entries, consentStored: true)
                }
                return .committed(
                    lockout: step, device: nil, audit: try Self.entries(commit.audit, parts: parts, linkedBy: linked), consentStored: false)
            } catch let error as PSQLError {
                guard let refusal = error.sqlState.flatMap(FoldRefusal.init(rawValue:)) else { throw error }
                switch refusal {
                case .versionConflict: return .versionConflict
                case .factorUsed: return .factorUsed
                case .notFound: throw StoreError.notFound
                case .countersChanged:
                    guard let now = error.serverInfo?[.detail].flatMap(Self.counters(in:)) else { return nil }
                    counters?.failedAttempts = now.failedAttempts
                    counters?.temporaryBlocks = now.temporaryBlocks
                    counters?.lockedUntil = now.lockedUntil
                    counters?.permanentlyLocked = now.permanentlyLocked
                }
            }
        }
        return nil
    }

    /// Everything of the commit but its lockout and its audit entries, as `sca_commit_proof`
    /// reads it.
    private static func foldArgument(_ commit: ProofCommit) throws -> JSONObjectText {
        var proof = JSONObjectText()
        proof.add("expected_version", commit.expectedVersion)
        if let challenge = commit.challenge {
            let columns = try ChallengeColumns(challenge)
            var row = JSONObjectText()
            row.add("id", challenge.id)
            row.add("user_id", challenge.userID)
            row.add("operation", columns.operation)
            row.add("verdict", columns.verdict)
            row.add("required_categories", challenge.requiredCategories)
            row.add("methods", columns.methods)
            row.add("nonce", challenge.nonce)
            row.add("transaction_json", columns.transaction)
            row.add("transaction_digest", challenge.transactionDigest)
            row.add("device_id", challenge.deviceID)
            row.add("state", columns.state)
            row.add("accepted_methods", columns.acceptedMethods)
            row.add("rejected_methods", columns.rejectedMethods)
            row.add("failed_attempts", challenge.failedAttempts)
            row.add("created_at", challenge.createdAt)
            row.add("expires_at", challenge.expiresAt)
            row.add("completed_at", challenge.completedAt)
            row.add("decoy_json", columns.decoy)
            row.add("pending_method", challenge.pendingMethod?.rawValue)
            row.add("exemption", challenge.exemption?.rawValue)
            row.add("extra_categories", columns.extraCategories)
            // Not under the column's name: the wrapper stores it (v3-challenge-signatures).
            if !columns.usedSignatures.isEmpty { row.add("used_signatures_hex", hex: columns.usedSignatures) }
            row.add("version", commit.expectedVersion + 1)
            proof.add("challenge", row)
        }
        switch commit.factor {
        case .deliveredCode(let challengeID, let method, let codeHash, let now)?:
            var factor = JSONObjectText()
            factor.add("kind", "code")
            factor.add("challenge_id", challengeID)
            factor.add("method", method.rawValue)
            factor.add("code_hash", hex: codeHash)
            factor.add("now", now)
            proof.add("factor", factor)
        case .totpStep(let userID, let step)?:
            var factor = JSONObjectText()
            factor.add("kind", "totp")
            factor.add("user_id", userID)
            factor.add("step", step)
            proof.add("factor", factor)
        case nil:
            break
        }
        if case .success(let id, let now)? = commit.device {
            var device = JSONObjectText()
            device.add("id", id)
            device.add("now", now)
            proof.add("device", device)
        }
        if let opening = commit.session {
            var session = JSONObjectText()
            session.add("id", opening.session.id)
            session.add("user_id", opening.session.userID)
            session.add("operation", opening.session.operation.rawValue)
            session.add("challenge_id", opening.session.challengeID)
            session.add("created_at", opening.session.createdAt)
            session.add("last_used_at", opening.session.lastUsedAt)
            session.add("revoked_at", opening.session.revokedAt)
            session.add("client_id", opening.session.clientID)
            proof.add("session", session)
            if let token = opening.refreshToken {
                var refresh = JSONObjectText()
                refresh.add("token_hash", hex: token.tokenHash)
                refresh.add("session_id", token.sessionID)
                refresh.add("issued_at", token.issuedAt)
                refresh.add("expires_at", token.expiresAt)
                refresh.add("used_at", token.usedAt)
                proof.add("refresh_token", refresh)
            }
        }
        return proof
    }

    /// The consent a proof decides, as the function of `v15-one-proof-function` reads it: the
    /// row, the version it was read at, the event when one may be written (the function checks
    /// its client's webhook), and the audit entry as a one-entry append.
    private static func consentArgument(_ change: ConsentChange, parts: AuditEntry.CanonicalParts) throws -> JSONObjectText {
        let consent = change.consent
        var row = JSONObjectText()
        row.add("id", consent.id)
        row.add("client_id", consent.clientID)
        row.add("user_id", consent.userID)
        row.add("operation", consent.operation.rawValue)
        row.add("transaction_json", try consent.transaction.map { try JSONColumn.text($0) })
        row.add("beneficiary_json", try consent.beneficiary.map { try JSONColumn.text($0) })
        row.add("summary", consent.summary)
        row.add("redirect_url", consent.redirectURL)
        row.add("resource_id", consent.resourceID)
        row.add("status", consent.status.rawValue)
        row.add("created_at", consent.createdAt)
        row.add("expires_at", consent.expiresAt)
        row.add("updated_at", consent.updatedAt)
        row.add("challenge_id", consent.challengeID)
        if let sealed = consent.sealedToken { row.add("sealed_token_hex", hex: sealed) }
        row.add("version", change.expectedVersion + 1)
        var argument = JSONObjectText()
        argument.add("row", row)
        argument.add("expected_version", change.expectedVersion)
        if let event = WebhookDeliveryRecord.toEnqueue(change.event, statusStored: true, receiverRegistered: true) {
            var delivery = JSONObjectText()
            delivery.add("id", event.id)
            delivery.add("kind", event.kind.rawValue)
            delivery.add("client_id", event.clientID)
            delivery.add("subject_id", event.subjectID)
            delivery.add("body", event.body)
            delivery.add("status", event.status.rawValue)
            delivery.add("attempts", event.attempts)
            delivery.add("next_attempt_at", event.nextAttemptAt)
            delivery.add("lease_until", event.leaseUntil)
            delivery.add("last_http_status", event.lastHTTPStatus)
            delivery.add("created_at", event.createdAt)
            delivery.add("finished_at", event.finishedAt)
            delivery.add("version", event.version)
            argument.add("delivery", delivery)
        }
        argument.add("entry", try appendArgument([change.audit], parts: [parts]))
        return argument
    }

    /// The counters the plan was decided on, and the result when it changes them.
    private static func lockoutArgument(userID: String, before: LockoutState, after: LockoutState) -> JSONObjectText {
        var lockout = JSONObjectText()
        lockout.add("user_id", userID)
        add(before, to: &lockout)
        if after != before {
            var next = JSONObjectText()
            add(after, to: &next)
            lockout.add("next", next)
        }
        return lockout
    }

    private static func add(_ counters: LockoutState, to object: inout JSONObjectText) {
        object.add("failed_attempts", counters.failedAttempts)
        object.add("temporary_blocks", counters.temporaryBlocks)
        object.add("locked_until", counters.lockedUntil)
        object.add("permanently_locked", counters.permanentlyLocked)
    }

    /// The counters `sca_commit_proof` found instead (its refusal's detail), nil when unreadable.
    private static func counters(in detail: String) -> LockoutState? {
        struct Found: Decodable {
            var failed_attempts: Int
            var temporary_blocks: Int
            var locked_until: Double?
            var permanently_locked: Bool
        }
        guard let found = try? JSONDecoder().decode(Found.self, from: Data(detail.utf8)) else { return nil }
        var counters = LockoutState()
        counters.failedAttempts = found.failed_attempts
        counters.temporaryBlocks = found.temporary_blocks
        counters.lockedUntil = found.locked_until.map(Date.init(unixSeconds:))
        counters.permanentlyLocked = found.permanently_locked
        return counters
    }
}
