import Foundation
import Logging
import PostgresNIO

/// The schema, as the same ordered list of named steps as the SQLite store's
/// (`SQLiteMigrations`), translated to PostgreSQL: `BYTEA` for blobs, `DOUBLE PRECISION` unix
/// seconds for dates, `BIGINT` for integers, `BOOLEAN` for flags, and JSON kept as `TEXT`,
/// so that both backends hold the same values.
///
/// Two additions stand in for SQLite's implicit `rowid`: `users.seq` and `signing_keys.seq`,
/// identity columns that order rows created at the same instant by insertion.
///
/// Applied steps are recorded in `schema_migrations`. Each step runs in its own transaction
/// that first takes a transaction-level advisory lock, so instances starting together take
/// turns and every step runs once; the lock is scoped to the current schema, so stores in
/// other schemas of the same database do not wait for each other.
enum PostgresMigrations {
    static let identifiers = steps.map(\.id)

    /// First key of the advisory locks of this store; the second is the schema's hash.
    static let lockNamespace: Int32 = 0x5343_4100  // "SCA\0"
    /// Second-level lock names within the namespace.
    static let migrationLock: Int32 = 1
    static let signingKeyLock: Int32 = 2
    /// Serializes audit appends, so two instances never give out one sequence number twice.
    static let auditLock: Int32 = 3
    /// Serializes rate-budget checks (v2-rate-limits), so two instances never both take the last use.
    static let rateBudgetLock: Int32 = 4
    /// Serializes the risk engine's running aggregates (v4-risk-aggregates), so that each
    /// payment's running totals start from the payment committed before it, on every instance.
    static let riskAggregateLock: Int32 = 5

    /// Brings the schema up to date on `connection`.
    /// - Throws: ``PostgresStoreError`` naming the step that failed.
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await inLockedTransaction(connection, logger: logger, step: "schema_migrations") {
            // `position` keeps the order in which steps were applied, for reading the history.
            _ = try await connection.rows(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    id TEXT PRIMARY KEY NOT NULL,
                    position BIGINT NOT NULL,
                    applied_at DOUBLE PRECISION NOT NULL
                )
                """,
                logger: logger)
        }
        for (position, step) in steps.enumerated() {
            try await inLockedTransaction(connection, logger: logger, step: step.id) {
                // Checked under the lock: another instance may have applied it meanwhile.
                let applied = try await connection.rows(
                    "SELECT 1 FROM schema_migrations WHERE id = \(step.id)", logger: logger)
                guard applied.isEmpty else { return }
                for statement in step.statements {
                    _ = try await connection.rows(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                _ = try await connection.rows(
                    """
                    INSERT INTO schema_migrations (id, position, applied_at)
                    VALUES (\(step.id), \(position), \(Date().unixSeconds))
                    """,
                    logger: logger)
                logger.info("applied schema step", metadata: ["migration": "\(step.id)"])
            }
        }
    }

    /// Runs `body` in a transaction holding this schema's migration lock.
    private static func inLockedTransaction(
        _ connection: PostgresConnection, logger: Logger, step: String, _ body: () async throws -> Void
    ) async throws {
        do {
            _ = try await connection.rows("BEGIN", logger: logger)
            do {
                try await connection.lockSchema(migrationLock, logger: logger)
                try await body()
            } catch {
                _ = try? await connection.rows("ROLLBACK", logger: logger)
                throw error
            }
            _ = try await connection.rows("COMMIT", logger: logger)
        } catch let error as PSQLError {
            throw PostgresStoreError(reason: "schema step \(step) failed: \(PostgresStoreError.summary(of: error))")
        }
    }

    // Dates are DOUBLE PRECISION unix seconds; lists and the transaction are JSON text; secrets
    // only ever arrive here hashed or sealed. PostgreSQL's extended protocol runs one
    // statement at a time, hence a list per step.
    private static let steps: [(id: String, statements: [String])] = [
        (
            "v1-users",
            [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY NOT NULL,
                    email TEXT NOT NULL UNIQUE,
                    phone TEXT,
                    password_hash TEXT,
                    pin_hash TEXT,
                    sealed_totp_seed BYTEA,
                    email_otp_enabled BOOLEAN NOT NULL DEFAULT FALSE,
                    roles TEXT NOT NULL DEFAULT '[]',
                    created_at DOUBLE PRECISION NOT NULL,
                    failed_attempts BIGINT NOT NULL DEFAULT 0,
                    temporary_blocks BIGINT NOT NULL DEFAULT 0,
                    locked_until DOUBLE PRECISION,
                    permanently_locked BOOLEAN NOT NULL DEFAULT FALSE,
                    last_totp_step BIGINT,
                    seq BIGINT GENERATED ALWAYS AS IDENTITY
                )
                """,
                "CREATE INDEX users_created_at ON users (created_at, seq)",
            ]
        ),
        (
            "v1-challenges",
            [
                """
                CREATE TABLE challenges (
                    id TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT,
                    operation TEXT NOT NULL,
                    verdict TEXT NOT NULL,
                    required_categories BIGINT NOT NULL,
                    methods TEXT NOT NULL,
                    nonce TEXT NOT NULL,
                    transaction_json TEXT,
                    transaction_digest TEXT,
                    device_id TEXT,
                    state TEXT NOT NULL,
                    accepted_methods TEXT NOT NULL,
                    rejected_methods TEXT NOT NULL,
                    failed_attempts BIGINT NOT NULL DEFAULT 0,
                    created_at DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL,
                    completed_at DOUBLE PRECISION,
                    version BIGINT NOT NULL
                )
                """,
                "CREATE INDEX challenges_user_id ON challenges (user_id)",
            ]
        ),
        (
            "v1-one-time-codes",
            [
                """
                CREATE TABLE one_time_codes (
                    challenge_id TEXT NOT NULL REFERENCES challenges (id) ON DELETE CASCADE,
                    method TEXT NOT NULL,
                    code_hash BYTEA NOT NULL,
                    sent_at DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL,
                    send_count BIGINT NOT NULL,
                    used BOOLEAN NOT NULL DEFAULT FALSE,
                    PRIMARY KEY (challenge_id, method)
                )
                """
            ]
        ),
        (
            "v1-sessions",
            [
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    challenge_id TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    last_used_at DOUBLE PRECISION NOT NULL,
                    revoked_at DOUBLE PRECISION
                )
                """,
                "CREATE INDEX sessions_user_id ON sessions (user_id)",
            ]
        ),
        (
            "v1-refresh-tokens",
            [
                """
                CREATE TABLE refresh_tokens (
                    token_hash BYTEA PRIMARY KEY NOT NULL,
                    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                    issued_at DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL,
                    used_at DOUBLE PRECISION
                )
                """,
                "CREATE INDEX refresh_tokens_session_id ON refresh_tokens (session_id)",
            ]
        ),
        (
            "v1-consumed-tokens",
            [
                """
                CREATE TABLE consumed_tokens (
                    jti TEXT PRIMARY KEY NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX consumed_tokens_expires_at ON consumed_tokens (expires_at)",
            ]
        ),
        (
            "v1-signing-keys",
            [
                """
                CREATE TABLE signing_keys (
                    key_id TEXT PRIMARY KEY NOT NULL,
                    algorithm TEXT NOT NULL,
                    sealed_private_key BYTEA NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    seq BIGINT GENERATED ALWAYS AS IDENTITY
                )
                """,
                "CREATE INDEX signing_keys_created_at ON signing_keys (created_at, seq)",
            ]
        ),
        (
            "v1-devices",
            [
                """
                CREATE TABLE devices (
                    id TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users (id),
                    name TEXT NOT NULL,
                    platform TEXT NOT NULL,
                    possession_key BYTEA NOT NULL,
                    biometry_key BYTEA,
                    status TEXT NOT NULL,
                    fail_count BIGINT NOT NULL DEFAULT 0,
                    created_at DOUBLE PRECISION NOT NULL,
                    last_used_at DOUBLE PRECISION
                )
                """,
                "CREATE INDEX devices_user_id ON devices (user_id)",
            ]
        ),
        (
            "v1-activation-codes",
            [
                """
                CREATE TABLE activation_codes (
                    lookup_id TEXT PRIMARY KEY NOT NULL,
                    code_hash BYTEA NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users (id),
                    created_at DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL,
                    failed_tries BIGINT NOT NULL DEFAULT 0,
                    used_at DOUBLE PRECISION
                )
                """
            ]
        ),
        (
            "v1-used-signatures",
            [
                """
                CREATE TABLE used_signatures (
                    hash BYTEA PRIMARY KEY NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX used_signatures_expires_at ON used_signatures (expires_at)",
            ]
        ),
        (
            // Append-only: the trigger refuses to change or delete an entry (an owner can
            // drop it; the hash chain is what shows that). Times are BIGINT milliseconds, the
            // precision the hash covers.
            "v1-audit",
            [
                """
                CREATE TABLE audit_entries (
                    sequence BIGINT PRIMARY KEY NOT NULL,
                    time_ms BIGINT NOT NULL,
                    event TEXT NOT NULL,
                    actor TEXT NOT NULL,
                    user_id TEXT,
                    device_id TEXT,
                    challenge_id TEXT,
                    session_id TEXT,
                    client_address TEXT,
                    request_id TEXT,
                    outcome TEXT NOT NULL,
                    details TEXT NOT NULL,
                    prev_hash TEXT NOT NULL,
                    hash TEXT NOT NULL
                )
                """,
                "CREATE INDEX audit_entries_time ON audit_entries (time_ms)",
                """
                CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION 'audit entries are append-only';
                END;
                $$
                """,
                """
                CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON audit_entries
                FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()
                """,
            ]
        ),
        (
            // Send and challenge budgets: one row per counted use, so a window slides; a
            // use's row can go once `expires_at` (its time plus the budget's window) has
            // passed. A decoy challenge keeps a keyed hash of what was typed (`decoy_json`).
            "v2-rate-limits",
            [
                """
                CREATE TABLE rate_events (
                    budget_key TEXT NOT NULL,
                    at DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX rate_events_key_at ON rate_events (budget_key, at)",
                "CREATE INDEX rate_events_expires_at ON rate_events (expires_at)",
                "ALTER TABLE challenges ADD COLUMN decoy_json TEXT",
            ]
        ),
        // v2-unknown-address-lockout: failure counters for addresses that match no user
        // (keyed by a keyed hash of the address, never the address), and the proof a challenge is checking right now.
        (
            "v2-unknown-address-lockout",
            [
                """
                CREATE TABLE unknown_address_lockouts (
                    key TEXT PRIMARY KEY NOT NULL,
                    failed_attempts BIGINT NOT NULL DEFAULT 0,
                    temporary_blocks BIGINT NOT NULL DEFAULT 0,
                    locked_until DOUBLE PRECISION,
                    permanently_locked BOOLEAN NOT NULL DEFAULT FALSE
                )
                """,
                "ALTER TABLE challenges ADD COLUMN pending_method TEXT",
            ]
        ),
        // v3-unknown-address-columns: an unknown address keeps a whole LockoutState,
        // so it is decoded and stored by the same columns as a user's.
        ("v3-unknown-address-columns", ["ALTER TABLE unknown_address_lockouts ADD COLUMN last_totp_step BIGINT"]),
        // v3-admin-keys: scoped admin API keys, stored as a SHA-256 hash only.
        // `seq` orders keys created at the same instant, as `users.seq` does.
        (
            "v3-admin-keys",
            [
                """
                CREATE TABLE admin_keys (
                    seq BIGINT GENERATED ALWAYS AS IDENTITY,
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL UNIQUE,
                    scopes TEXT NOT NULL,
                    key_hash BYTEA NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    last_used_at DOUBLE PRECISION,
                    revoked_at DOUBLE PRECISION
                )
                """,
            ]
        ),
        // v3-risk: the risk engine's per-user and provider states (one JSON record
        // per key, changed with the row locked), the payments it decided on (history for the
        // monitoring signals, volume for the fraud rates), fraud reports, and the exemption a
        // challenge completed under.
        (
            "v3-risk",
            [
                """
                CREATE TABLE risk_states (
                    key TEXT PRIMARY KEY NOT NULL,
                    state_json TEXT NOT NULL
                )
                """,
                """
                CREATE TABLE risk_payments (
                    challenge_id TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    authorised_at DOUBLE PRECISION,
                    amount_minor BIGINT NOT NULL,
                    amount TEXT NOT NULL,
                    currency TEXT NOT NULL,
                    payment_type TEXT NOT NULL,
                    payee_key TEXT NOT NULL,
                    iban TEXT,
                    transaction_digest TEXT NOT NULL,
                    client_address TEXT,
                    device_id TEXT,
                    exemption TEXT,
                    recurring BOOLEAN NOT NULL DEFAULT FALSE
                )
                """,
                "CREATE INDEX risk_payments_user_authorised ON risk_payments (user_id, authorised_at)",
                "CREATE INDEX risk_payments_authorised ON risk_payments (authorised_at)",
                "CREATE INDEX risk_payments_digest ON risk_payments (transaction_digest)",
                """
                CREATE TABLE fraud_reports (
                    id TEXT PRIMARY KEY NOT NULL,
                    transaction_digest TEXT UNIQUE,
                    amount_minor BIGINT NOT NULL,
                    payment_type TEXT NOT NULL,
                    occurred_at DOUBLE PRECISION NOT NULL,
                    reported_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX fraud_reports_occurred ON fraud_reports (occurred_at)",
                "ALTER TABLE challenges ADD COLUMN exemption TEXT",
            ]
        ),
        // v3-partners: partner clients of the hosted pages, the authorization codes
        // their sign-ins granted (by hash; kept after use so a replay can revoke the session),
        // and consents to single operations.
        (
            "v3-partners",
            [
                """
                CREATE TABLE partner_clients (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    secret_hash BYTEA,
                    redirect_uris TEXT NOT NULL,
                    consent_redirect_uris TEXT NOT NULL,
                    scopes TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL
                )
                """,
                """
                CREATE TABLE authorization_grants (
                    code_hash BYTEA PRIMARY KEY NOT NULL,
                    client_id TEXT NOT NULL,
                    redirect_uri TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    session_id TEXT NOT NULL,
                    scopes TEXT NOT NULL,
                    nonce TEXT,
                    code_challenge TEXT NOT NULL,
                    auth_time DOUBLE PRECISION NOT NULL,
                    sealed_tokens BYTEA NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL,
                    redeemed_at DOUBLE PRECISION
                )
                """,
                "CREATE INDEX authorization_grants_session ON authorization_grants (session_id)",
                """
                CREATE TABLE consents (
                    id TEXT PRIMARY KEY NOT NULL,
                    client_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    transaction_json TEXT,
                    beneficiary_json TEXT,
                    summary TEXT,
                    redirect_url TEXT NOT NULL,
                    resource_id TEXT,
                    status TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL,
                    updated_at DOUBLE PRECISION NOT NULL,
                    challenge_id TEXT,
                    sealed_token BYTEA,
                    version BIGINT NOT NULL
                )
                """,
            ]
        ),
        // v3-passkeys: WebAuthn credentials registered to users. The credential id
        // is unique across users; a counter that goes backwards marks a row `suspect`.
        (
            "v3-passkeys",
            [
                """
                CREATE TABLE passkeys (
                    id TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users (id),
                    credential_id BYTEA NOT NULL UNIQUE,
                    public_key BYTEA NOT NULL,
                    sign_count BIGINT NOT NULL,
                    backup_eligible BOOLEAN NOT NULL,
                    backed_up BOOLEAN NOT NULL,
                    aaguid BYTEA NOT NULL,
                    attestation_type TEXT NOT NULL,
                    attestation_format TEXT NOT NULL,
                    name TEXT NOT NULL,
                    status TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    last_used_at DOUBLE PRECISION
                )
                """,
                "CREATE INDEX passkeys_user_id ON passkeys (user_id)",
            ]
        ),
        // v3-operations: decoupled operations a backend asks the bound phone to
        // approve; each owns a challenge and reaches one final status by compare-and-set.
        (
            "v3-operations",
            [
                """
                CREATE TABLE operations (
                    id TEXT PRIMARY KEY NOT NULL,
                    user_id TEXT NOT NULL,
                    client_id TEXT,
                    device_id TEXT NOT NULL,
                    challenge_id TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    transaction_json TEXT,
                    binding_message TEXT,
                    status TEXT NOT NULL,
                    reject_reason TEXT,
                    created_at DOUBLE PRECISION NOT NULL,
                    expires_at DOUBLE PRECISION NOT NULL,
                    finished_at DOUBLE PRECISION,
                    sealed_token BYTEA,
                    version BIGINT NOT NULL
                )
                """,
                "CREATE INDEX operations_device_status ON operations (device_id, status)",
                "CREATE INDEX authorization_grants_client_user ON authorization_grants (client_id, user_id)",
            ]
        ),
        // v3-passkey-proofs: the categories a proof proved besides its method's own (a
        // user-verified passkey proves possession and inherence), per challenge.
        (
            "v3-passkey-proofs",
            ["ALTER TABLE challenges ADD COLUMN extra_categories TEXT NOT NULL DEFAULT '[]'"]
        ),
        // v3-signup: a user's name and custom attributes, one JSON column.
        ("v3-signup", ["ALTER TABLE users ADD COLUMN profile_json TEXT"]),
        // v3-partner-webhooks: a partner client's webhook (secret sealed, not hashed:
        // the server signs with it) and the durable outbox of its events.
        (
            "v3-partner-webhooks",
            [
                """
                CREATE TABLE partner_webhooks (
                    client_id TEXT PRIMARY KEY NOT NULL,
                    url TEXT NOT NULL,
                    sealed_secret BYTEA NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL
                )
                """,
                """
                CREATE TABLE webhook_deliveries (
                    id TEXT PRIMARY KEY NOT NULL,
                    client_id TEXT NOT NULL,
                    operation_id TEXT NOT NULL,
                    body TEXT NOT NULL,
                    status TEXT NOT NULL,
                    attempts BIGINT NOT NULL,
                    next_attempt_at DOUBLE PRECISION NOT NULL,
                    lease_until DOUBLE PRECISION,
                    last_http_status BIGINT,
                    created_at DOUBLE PRECISION NOT NULL,
                    finished_at DOUBLE PRECISION,
                    version BIGINT NOT NULL
                )
                """,
                "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)",
                "CREATE INDEX operations_status_expires ON operations (status, expires_at)",
            ]
        ),
        // v3-proof-path: each user's count of active passkeys, kept by the passkey
        // operations, so opening a challenge reads the user alone.
        (
            "v3-proof-path",
            [
                "ALTER TABLE users ADD COLUMN active_passkeys BIGINT NOT NULL DEFAULT 0",
                """
                UPDATE users SET active_passkeys =
                    (SELECT COUNT(*) FROM passkeys WHERE passkeys.user_id = users.id AND passkeys.status = 'active')
                """,
            ]
        ),
        // v3-webhook-events: the outbox carries consent events as well as operation
        // events, so its column names the event's subject rather than an operation.
        ("v3-webhook-events", ["ALTER TABLE webhook_deliveries RENAME COLUMN operation_id TO subject_id"]),
        // v3-signup-phone: the E.164 number a user who signed up by phone signs in
        // with. Unique (NULLs apart), unlike `phone`, which several users may share for SMS.
        (
            "v3-signup-phone",
            [
                "ALTER TABLE users ADD COLUMN login_phone TEXT",
                "CREATE UNIQUE INDEX users_login_phone_key ON users (login_phone)",
            ]
        ),
        // v3-audit-append: an append links its entries in the database, in the
        // statement that inserts them, instead of over four round trips (lock, read the last
        // entry, insert, commit) during which every other append on the database waited for the
        // lock. The function takes the same advisory lock as before (so instances of the previous
        // version, during a rolling upgrade, still take turns with it), then reads the last link
        // with a snapshot taken after the lock, and hashes each entry as `AuditEntry` does: the
        // caller sends the canonical content cut around `prevHash` and `sequence`
        // (`AuditEntry.canonicalParts`), and checks the hashes it gets back.
        (
            "v3-audit-append",
            [
                """
                CREATE FUNCTION sca_append_audit(entries TEXT)
                RETURNS TABLE (entry_sequence BIGINT, entry_prev_hash TEXT, entry_hash TEXT)
                LANGUAGE plpgsql VOLATILE AS $$
                DECLARE
                    entry RECORD;
                BEGIN
                    PERFORM pg_advisory_xact_lock(\(lockNamespace), hashtext(coalesce(current_schema(), '')) # \(auditLock));
                    SELECT a.sequence, a.hash INTO entry_sequence, entry_hash
                    FROM audit_entries a ORDER BY a.sequence DESC LIMIT 1;
                    entry_sequence := coalesce(entry_sequence, 0);
                    entry_hash := coalesce(entry_hash, repeat('0', 64));
                    FOR entry IN
                        SELECT * FROM json_to_recordset(entries::json) AS e(
                            time_ms BIGINT, event TEXT, actor TEXT, user_id TEXT, device_id TEXT, challenge_id TEXT,
                            session_id TEXT, client_address TEXT, request_id TEXT, outcome TEXT, details TEXT,
                            head TEXT, middle TEXT, tail TEXT)
                    LOOP
                        entry_prev_hash := entry_hash;
                        entry_sequence := entry_sequence + 1;
                        entry_hash := encode(sha256(
                            decode(entry_prev_hash, 'hex') || decode(entry.head, 'base64')
                            || convert_to('"' || entry_prev_hash || '"', 'UTF8') || decode(entry.middle, 'base64')
                            || convert_to(entry_sequence::text, 'UTF8') || decode(entry.tail, 'base64')), 'hex');
                        INSERT INTO audit_entries (
                            sequence, time_ms, event, actor, user_id, device_id, challenge_id, session_id,
                            client_address, request_id, outcome, details, prev_hash, hash
                        ) VALUES (
                            entry_sequence, entry.time_ms, entry.event, entry.actor, entry.user_id, entry.device_id,
                            entry.challenge_id, entry.session_id, entry.client_address, entry.request_id, entry.outcome,
                            entry.details, entry_prev_hash, entry_hash
                        );
                        RETURN NEXT;
                    END LOOP;
                END
                $$
                """,
            ]
        ),
        // v3-proof-fold: a proof's commit in one statement, one round trip, instead of
        // a transaction of up to ten (BEGIN, the lockout row read and written, the factor, the
        // challenge, the burn, the device, the session, its token, the audit, COMMIT) during
        // which the rows stayed locked while the server sent the next one. The function runs the
        // same statements in the same order (so it takes the same locks in the same order), and
        // a failed check raises an error that undoes all of it, named by its SQLSTATE
        // (`PostgresProofFold`). The decisions stay in Swift: the caller sends the lockout
        // counters it decided from, and the function refuses (`SCA04`, with the counters as they
        // are) when the locked row holds others, so the caller decides again. Its column lists
        // follow the tables (`PostgresStoreDatabaseTests` checks the challenge's).
        (
            "v3-proof-fold",
            [
                """
                CREATE FUNCTION sca_commit_proof(proof TEXT, entries TEXT)
                RETURNS TABLE (entry_sequence BIGINT, entry_prev_hash TEXT, entry_hash TEXT)
                LANGUAGE plpgsql VOLATILE AS $$
                DECLARE
                    p JSON := proof::json;
                    lockout JSON := p->'lockout';
                    factor JSON := p->'factor';
                    burn JSON := p->'signature';
                    device JSON := p->'device';
                    session JSON := p->'session';
                    token JSON := p->'refresh_token';
                    counters RECORD;
                    next challenges;
                BEGIN
                    IF lockout IS NOT NULL THEN
                        SELECT u.failed_attempts, u.temporary_blocks, u.locked_until, u.permanently_locked INTO counters
                        FROM users u WHERE u.id = lockout->>'user_id' FOR NO KEY UPDATE;
                        IF NOT FOUND THEN
                            RAISE EXCEPTION 'no such user' USING ERRCODE = 'SCA05';
                        END IF;
                        IF (counters.failed_attempts, counters.temporary_blocks, counters.locked_until, counters.permanently_locked)
                            IS DISTINCT FROM ((lockout->>'failed_attempts')::BIGINT, (lockout->>'temporary_blocks')::BIGINT,
                                (lockout->>'locked_until')::DOUBLE PRECISION, (lockout->>'permanently_locked')::BOOLEAN) THEN
                            RAISE EXCEPTION 'the lockout counters changed' USING ERRCODE = 'SCA04', DETAIL = json_build_object(
                                'failed_attempts', counters.failed_attempts, 'temporary_blocks', counters.temporary_blocks,
                                'locked_until', counters.locked_until, 'permanently_locked', counters.permanently_locked)::TEXT;
                        END IF;
                        IF lockout->'next' IS NOT NULL THEN
                            UPDATE users SET
                                failed_attempts = (lockout->'next'->>'failed_attempts')::BIGINT,
                                temporary_blocks = (lockout->'next'->>'temporary_blocks')::BIGINT,
                                locked_until = (lockout->'next'->>'locked_until')::DOUBLE PRECISION,
                                permanently_locked = (lockout->'next'->>'permanently_locked')::BOOLEAN
                            WHERE id = lockout->>'user_id';
                        END IF;
                    END IF;
                    IF factor IS NOT NULL THEN
                        IF factor->>'kind' = 'code' THEN
                            UPDATE one_time_codes SET used = TRUE
                            WHERE challenge_id = factor->>'challenge_id' AND method = factor->>'method'
                                AND code_hash = decode(factor->>'code_hash', 'hex') AND NOT used
                                AND expires_at > (factor->>'now')::DOUBLE PRECISION;
                        ELSE
                            UPDATE users SET last_totp_step = (factor->>'step')::BIGINT
                            WHERE id = factor->>'user_id' AND (last_totp_step IS NULL OR last_totp_step < (factor->>'step')::BIGINT);
                        END IF;
                        IF NOT FOUND THEN
                            RAISE EXCEPTION 'the factor was used' USING ERRCODE = 'SCA03';
                        END IF;
                    END IF;
                    IF p->'challenge' IS NOT NULL THEN
                        next := json_populate_record(NULL::challenges, p->'challenge');
                        UPDATE challenges SET
                            user_id = next.user_id, operation = next.operation, verdict = next.verdict,
                            required_categories = next.required_categories, methods = next.methods, nonce = next.nonce,
                            transaction_json = next.transaction_json, transaction_digest = next.transaction_digest,
                            device_id = next.device_id, state = next.state, accepted_methods = next.accepted_methods,
                            rejected_methods = next.rejected_methods, failed_attempts = next.failed_attempts,
                            created_at = next.created_at, expires_at = next.expires_at, completed_at = next.completed_at,
                            decoy_json = next.decoy_json, pending_method = next.pending_method, exemption = next.exemption,
                            extra_categories = next.extra_categories, version = next.version
                        WHERE id = next.id AND version = (p->>'expected_version')::BIGINT;
                        IF NOT FOUND THEN
                            RAISE EXCEPTION 'the challenge changed' USING ERRCODE = 'SCA01';
                        END IF;
                    END IF;
                    IF burn IS NOT NULL THEN
                        INSERT INTO used_signatures (hash, expires_at)
                        VALUES (decode(burn->>'hash', 'hex'), (burn->>'expires_at')::DOUBLE PRECISION)
                        ON CONFLICT (hash) DO UPDATE SET expires_at = EXCLUDED.expires_at
                        WHERE used_signatures.expires_at < (burn->>'now')::DOUBLE PRECISION;
                        IF NOT FOUND THEN
                            RAISE EXCEPTION 'the signature was used' USING ERRCODE = 'SCA02';
                        END IF;
                    END IF;
                    IF device IS NOT NULL THEN
                        UPDATE devices SET fail_count = 0, last_used_at = (device->>'now')::DOUBLE PRECISION
                        WHERE id = device->>'id';
                        IF NOT FOUND THEN
                            RAISE EXCEPTION 'no such device' USING ERRCODE = 'SCA05';
                        END IF;
                    END IF;
                    IF session IS NOT NULL THEN
                        INSERT INTO sessions (id, user_id, operation, challenge_id, created_at, last_used_at, revoked_at)
                        VALUES (
                            session->>'id', session->>'user_id', session->>'operation', session->>'challenge_id',
                            (session->>'created_at')::DOUBLE PRECISION, (session->>'last_used_at')::DOUBLE PRECISION,
                            (session->>'revoked_at')::DOUBLE PRECISION);
                    END IF;
                    IF token IS NOT NULL THEN
                        INSERT INTO refresh_tokens (token_hash, session_id, issued_at, expires_at, used_at)
                        VALUES (
                            decode(token->>'token_hash', 'hex'), token->>'session_id', (token->>'issued_at')::DOUBLE PRECISION,
                            (token->>'expires_at')::DOUBLE PRECISION, (token->>'used_at')::DOUBLE PRECISION);
                    END IF;
                    IF entries IS NOT NULL THEN
                        RETURN QUERY SELECT a.entry_sequence, a.entry_prev_hash, a.entry_hash FROM sca_append_audit(entries) a;
                    END IF;
                END
                $$
                """,
            ]
        ),
        // v3-challenge-signatures: a device signature's burn is kept on the challenge
        // it signs, as in the SQLite store (see there). The proof function of v3-proof-fold is
        // kept as it is, under a new name, and wrapped: the wrapper runs it, then stores the
        // challenge's used signatures (the row is the caller's by then: the compare-and-set
        // locked it). An instance of the previous version sends no such field, so its commits
        // leave the column alone, and its burns still go to `used_signatures`, as before.
        (
            "v3-challenge-signatures",
            [
                "ALTER TABLE challenges ADD COLUMN used_signature_hashes BYTEA NOT NULL DEFAULT '\\x'",
                "ALTER FUNCTION sca_commit_proof(TEXT, TEXT) RENAME TO sca_commit_proof_v3",
                """
                CREATE FUNCTION sca_commit_proof(proof TEXT, entries TEXT)
                RETURNS TABLE (entry_sequence BIGINT, entry_prev_hash TEXT, entry_hash TEXT)
                LANGUAGE plpgsql VOLATILE AS $$
                DECLARE
                    challenge JSON := proof::json->'challenge';
                BEGIN
                    RETURN QUERY SELECT * FROM sca_commit_proof_v3(proof, entries);
                    IF challenge->'used_signatures_hex' IS NOT NULL THEN
                        UPDATE challenges SET used_signature_hashes = decode(challenge->>'used_signatures_hex', 'hex')
                        WHERE id = challenge->>'id';
                    END IF;
                END
                $$
                """,
            ]
        ),
        // v4-delegated-tokens: a challenge opened for a partner names it, and so does every
        // session its proofs open, so that no token of it is ever a first-party token (as in the
        // SQLite store, see there for the backfill). The proof function is wrapped once more, as
        // in v3-challenge-signatures: the wrapper runs the previous one, then names the client on
        // the session it opened (the row is new and the caller's). A commit from an instance of
        // the previous version sends no client and opens a first-party session, as it did.
        (
            "v4-delegated-tokens",
            [
                "ALTER TABLE challenges ADD COLUMN delegation_json TEXT",
                "ALTER TABLE sessions ADD COLUMN client_id TEXT",
                "CREATE INDEX sessions_client_id ON sessions (client_id) WHERE client_id IS NOT NULL",
                """
                UPDATE sessions SET client_id = g.client_id FROM authorization_grants g WHERE g.session_id = sessions.id
                """,
                """
                UPDATE sessions SET client_id = c.client_id FROM consents c
                WHERE c.challenge_id = sessions.challenge_id AND sessions.client_id IS NULL
                """,
                """
                UPDATE sessions SET client_id = o.client_id FROM operations o
                WHERE o.challenge_id = sessions.challenge_id AND o.client_id IS NOT NULL AND sessions.client_id IS NULL
                """,
                "ALTER FUNCTION sca_commit_proof(TEXT, TEXT) RENAME TO sca_commit_proof_v3_signatures",
                """
                CREATE FUNCTION sca_commit_proof(proof TEXT, entries TEXT)
                RETURNS TABLE (entry_sequence BIGINT, entry_prev_hash TEXT, entry_hash TEXT)
                LANGUAGE plpgsql VOLATILE AS $$
                DECLARE
                    session JSON := proof::json->'session';
                BEGIN
                    RETURN QUERY SELECT * FROM sca_commit_proof_v3_signatures(proof, entries);
                    IF session->>'client_id' IS NOT NULL THEN
                        UPDATE sessions SET client_id = session->>'client_id' WHERE id = session->>'id';
                    END IF;
                END
                $$
                """,
            ]
        ),
        // v4-risk-aggregates: the running aggregates a payment's risk decision reads instead of
        // the user's or the installation's history (see `SQLiteMigrations`), filled from the
        // rows already there. They move under `riskAggregateLock`.
        (
            "v4-risk-aggregates",
            [
                "ALTER TABLE risk_payments ADD COLUMN user_count_through BIGINT",
                "ALTER TABLE risk_payments ADD COLUMN user_sum_through BIGINT",
                "ALTER TABLE risk_payments ADD COLUMN volume_through BIGINT",
                "CREATE INDEX risk_payments_type_authorised ON risk_payments (payment_type, authorised_at)",
                """
                CREATE TABLE risk_user_seen (
                    user_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    value TEXT NOT NULL,
                    last_at DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (user_id, kind, value)
                )
                """,
                """
                CREATE TABLE risk_user_maxima (
                    user_id TEXT NOT NULL,
                    authorised_at DOUBLE PRECISION NOT NULL,
                    amount_minor BIGINT NOT NULL,
                    PRIMARY KEY (user_id, authorised_at)
                )
                """,
                "CREATE INDEX risk_user_maxima_amount ON risk_user_maxima (user_id, amount_minor)",
                """
                CREATE TABLE fraud_days (
                    payment_type TEXT NOT NULL,
                    day BIGINT NOT NULL,
                    amount_minor BIGINT NOT NULL,
                    amount_through BIGINT NOT NULL,
                    PRIMARY KEY (payment_type, day)
                )
                """,
                """
                UPDATE risk_payments SET user_count_through = totals.count_through,
                    user_sum_through = totals.sum_through, volume_through = totals.volume_through
                FROM (
                    SELECT challenge_id,
                        COUNT(*) OVER (PARTITION BY user_id ORDER BY authorised_at) AS count_through,
                        SUM(amount_minor) OVER (PARTITION BY user_id ORDER BY authorised_at) AS sum_through,
                        SUM(CASE WHEN exemption IS NULL OR exemption = 'tra' THEN amount_minor ELSE 0 END)
                            OVER (PARTITION BY payment_type ORDER BY authorised_at) AS volume_through
                    FROM risk_payments WHERE authorised_at IS NOT NULL
                ) AS totals
                WHERE risk_payments.challenge_id = totals.challenge_id
                """,
                """
                INSERT INTO risk_user_seen (user_id, kind, value, last_at)
                SELECT user_id, 'payee', payee_key, MAX(authorised_at) FROM risk_payments
                WHERE authorised_at IS NOT NULL GROUP BY user_id, payee_key
                """,
                """
                INSERT INTO risk_user_seen (user_id, kind, value, last_at)
                SELECT user_id, 'address', client_address, MAX(authorised_at) FROM risk_payments
                WHERE authorised_at IS NOT NULL AND client_address IS NOT NULL GROUP BY user_id, client_address
                """,
                """
                INSERT INTO risk_user_seen (user_id, kind, value, last_at)
                SELECT user_id, 'any_address', '', MAX(authorised_at) FROM risk_payments
                WHERE authorised_at IS NOT NULL AND client_address IS NOT NULL GROUP BY user_id
                """,
                """
                INSERT INTO risk_user_maxima (user_id, authorised_at, amount_minor)
                SELECT user_id, authorised_at, amount_minor FROM (
                    SELECT user_id, authorised_at, amount_minor,
                        MAX(amount_minor) OVER (
                            PARTITION BY user_id ORDER BY authorised_at DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
                        ) AS later_largest
                    FROM (
                        SELECT user_id, authorised_at, MAX(amount_minor) AS amount_minor FROM risk_payments
                        WHERE authorised_at IS NOT NULL GROUP BY user_id, authorised_at
                    ) AS per_instant
                ) AS ranked
                WHERE later_largest IS NULL OR amount_minor > later_largest
                """,
                """
                INSERT INTO fraud_days (payment_type, day, amount_minor, amount_through)
                SELECT payment_type, day, amount_minor, SUM(amount_minor) OVER (PARTITION BY payment_type ORDER BY day) FROM (
                    SELECT payment_type, day, SUM(amount_minor) AS amount_minor FROM (
                        SELECT payment_type, amount_minor,
                            guess - (guess * 86400::DOUBLE PRECISION > occurred_at)::INT
                                + ((guess + 1) * 86400::DOUBLE PRECISION <= occurred_at)::INT AS day
                        FROM (
                            SELECT payment_type, amount_minor, occurred_at, floor(occurred_at / 86400)::BIGINT AS guess
                            FROM fraud_reports
                        ) AS guessed
                    ) AS dated
                    GROUP BY payment_type, day
                ) AS days
                """,
            ]
        ),
        // v5-client-keys: a partner client's profile (`fapi2` holds it to the FAPI 2.0 Security
        // Profile) and its public keys, for clients that prove themselves with a signed assertion
        // instead of a shared secret; and the key a session's tokens are bound to (DPoP).
        // Clients registered before are `standard`, without keys; sessions stay bearer.
        (
            "v5-client-keys",
            [
                "ALTER TABLE partner_clients ADD COLUMN profile TEXT NOT NULL DEFAULT 'standard'",
                "ALTER TABLE partner_clients ADD COLUMN jwks TEXT",
                "ALTER TABLE sessions ADD COLUMN key_thumbprint TEXT",
            ]
        ),
        // v6-partner-requests: what a partner client's authorization requests may carry and must
        // be: the `authorization_details` types (RFC 9396) it may ask users to approve, and
        // whether its pushed requests must be signed request objects (RFC 9101); and where its
        // users may go back after a logout. Clients registered before ask by scope only, signed
        // or not, and keep their users on the signed-out page.
        (
            "v6-partner-requests",
            [
                "ALTER TABLE partner_clients ADD COLUMN authorization_details_types TEXT NOT NULL DEFAULT '[]'",
                "ALTER TABLE partner_clients ADD COLUMN require_signed_request_object BOOLEAN NOT NULL DEFAULT FALSE",
                "ALTER TABLE partner_clients ADD COLUMN post_logout_redirect_uris TEXT NOT NULL DEFAULT '[]'",
            ]
        ),
        // v7-partner-notifications: what the server tells a partner on its own. A client may
        // publish its keys at a URL, be told when one of its sessions ends (back-channel
        // logout), and be pinged when a CIBA request has its answer; the outbox carries the
        // three kinds of message. Clients registered before keep inline keys, no logout
        // messages and poll mode; queued deliveries are webhook events.
        (
            "v7-partner-notifications",
            [
                "ALTER TABLE partner_clients ADD COLUMN jwks_uri TEXT",
                "ALTER TABLE partner_clients ADD COLUMN backchannel_logout_uri TEXT",
                "ALTER TABLE partner_clients ADD COLUMN ciba_notification_endpoint TEXT",
                "ALTER TABLE operations ADD COLUMN sealed_notification BYTEA",
                "ALTER TABLE webhook_deliveries ADD COLUMN kind TEXT NOT NULL DEFAULT 'event'",
            ]
        ),
        // v8-signing-key-activation: token-signing keys rotate. A rotated key is stored ahead of
        // the instant it starts to sign, so that it is published first; keys stored before
        // activate at their creation, so the newest of them keeps signing.
        (
            "v8-signing-key-activation",
            [
                "ALTER TABLE signing_keys ADD COLUMN activates_at DOUBLE PRECISION",
                "UPDATE signing_keys SET activates_at = created_at",
                "ALTER TABLE signing_keys ALTER COLUMN activates_at SET NOT NULL",
                "CREATE INDEX signing_keys_activates_at ON signing_keys (activates_at, created_at, seq)",
            ]
        ),
        // v9-console-lookups: what the operator console looks up. A user's timeline reads the
        // newest audit entries that name them, and a search finds users by the phone they
        // receive codes on.
        (
            "v9-console-lookups",
            [
                "CREATE INDEX audit_entries_user ON audit_entries (user_id, sequence) WHERE user_id IS NOT NULL",
                "CREATE INDEX users_phone ON users (phone) WHERE phone IS NOT NULL",
            ]
        ),
        // v10-recovery-sheets: one recovery sheet per user, the code and the PUKs as keyed
        // digests only, with failure counters of its own (a recovery is not a sign-in).
        (
            "v10-recovery-sheets",
            [
                """
                CREATE TABLE recovery_sheets (
                    user_id TEXT PRIMARY KEY NOT NULL REFERENCES users (id),
                    code_digest BYTEA NOT NULL UNIQUE,
                    puk_digests BYTEA NOT NULL,
                    used_puks BIGINT NOT NULL DEFAULT 0,
                    failed_attempts BIGINT NOT NULL DEFAULT 0,
                    temporary_blocks BIGINT NOT NULL DEFAULT 0,
                    locked_until DOUBLE PRECISION,
                    permanently_locked BOOLEAN NOT NULL DEFAULT FALSE,
                    last_totp_step BIGINT,
                    created_at DOUBLE PRECISION NOT NULL
                )
                """
            ]
        ),
        // v11-console-reports: what the console's risk and audit pages read. The exemptions
        // granted per week count exempted payments in a time range, from an index that holds
        // those alone; the audit view filters the trail by event, newest first.
        (
            "v11-console-reports",
            [
                "CREATE INDEX risk_payments_exempted ON risk_payments (authorised_at, exemption) WHERE exemption IS NOT NULL",
                "CREATE INDEX audit_entries_event ON audit_entries (event, sequence)",
            ]
        ),
        // v12-password-reset: a password reset proven with one element restricts the account
        // until an operator lifts it; the column holds when the cooling-off ends (null: not
        // restricted).
        (
            "v12-password-reset",
            ["ALTER TABLE users ADD COLUMN restricted_until DOUBLE PRECISION"]
        ),
        // v13-partner-health: the console's partners page counts each client's consents and
        // webhook deliveries by status, and lists the failed ones newest first.
        (
            "v13-partner-health",
            [
                "CREATE INDEX consents_client_status ON consents (client_id, status)",
                "CREATE INDEX webhook_deliveries_client ON webhook_deliveries (client_id, status, created_at)",
            ]
        ),
        // v14-audit-lifecycle: an entry's personal facts (address, passkey name, masked IBAN)
        // stay in their columns but the chain hashes their keyed digest (`personal_digest`), so
        // erasing a person clears the facts and leaves the chain whole: the trigger now allows
        // that clearing and nothing else. The trail's oldest entries may leave for an archive, up
        // to a cut recorded in `audit_cuts` first; the trigger refuses any other delete. The
        // append function stores the digest (an instance of the previous version sends none:
        // its entries are unsealed, as before). Retention deletes by time: challenges, sessions
        // and deliveries get the indexes their purge reads.
        (
            "v14-audit-lifecycle",
            [
                "ALTER TABLE audit_entries ADD COLUMN personal_digest TEXT",
                """
                CREATE TABLE audit_cuts (
                    through_sequence BIGINT PRIMARY KEY NOT NULL,
                    hash TEXT NOT NULL,
                    checkpoint TEXT NOT NULL,
                    archive TEXT NOT NULL,
                    cut_at DOUBLE PRECISION NOT NULL
                )
                """,
                """
                CREATE OR REPLACE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'DELETE' THEN
                        IF OLD.sequence <= (SELECT coalesce(max(through_sequence), 0) FROM audit_cuts) THEN
                            RETURN OLD;
                        END IF;
                    ELSIF OLD.personal_digest IS NOT NULL AND NEW.client_address IS NULL
                        AND ROW(NEW.sequence, NEW.time_ms, NEW.event, NEW.actor, NEW.user_id, NEW.device_id,
                            NEW.challenge_id, NEW.session_id, NEW.request_id, NEW.outcome, NEW.prev_hash, NEW.hash,
                            NEW.personal_digest)
                        IS NOT DISTINCT FROM ROW(OLD.sequence, OLD.time_ms, OLD.event, OLD.actor, OLD.user_id,
                            OLD.device_id, OLD.challenge_id, OLD.session_id, OLD.request_id, OLD.outcome, OLD.prev_hash,
                            OLD.hash, OLD.personal_digest)
                    THEN
                        RETURN NEW;
                    END IF;
                    RAISE EXCEPTION 'audit entries are append-only';
                END;
                $$
                """,
                """
                CREATE OR REPLACE FUNCTION sca_append_audit(entries TEXT)
                RETURNS TABLE (entry_sequence BIGINT, entry_prev_hash TEXT, entry_hash TEXT)
                LANGUAGE plpgsql VOLATILE AS $$
                DECLARE
                    entry RECORD;
                BEGIN
                    PERFORM pg_advisory_xact_lock(\(lockNamespace), hashtext(coalesce(current_schema(), '')) # \(auditLock));
                    SELECT a.sequence, a.hash INTO entry_sequence, entry_hash
                    FROM audit_entries a ORDER BY a.sequence DESC LIMIT 1;
                    entry_sequence := coalesce(entry_sequence, (SELECT max(through_sequence) FROM audit_cuts), 0);
                    entry_hash := coalesce(entry_hash, (SELECT c.hash FROM audit_cuts c ORDER BY c.through_sequence DESC LIMIT 1), repeat('0', 64));
                    FOR entry IN
                        SELECT * FROM json_to_recordset(entries::json) AS e(
                            time_ms BIGINT, event TEXT, actor TEXT, user_id TEXT, device_id TEXT, challenge_id TEXT,
                            session_id TEXT, client_address TEXT, request_id TEXT, outcome TEXT, details TEXT,
                            personal_digest TEXT, head TEXT, middle TEXT, tail TEXT)
                    LOOP
                        entry_prev_hash := entry_hash;
                        entry_sequence := entry_sequence + 1;
                        entry_hash := encode(sha256(
                            decode(entry_prev_hash, 'hex') || decode(entry.head, 'base64')
                            || convert_to('"' || entry_prev_hash || '"', 'UTF8') || decode(entry.middle, 'base64')
                            || convert_to(entry_sequence::text, 'UTF8') || decode(entry.tail, 'base64')), 'hex');
                        INSERT INTO audit_entries (
                            sequence, time_ms, event, actor, user_id, device_id, challenge_id, session_id,
                            client_address, request_id, outcome, details, prev_hash, hash, personal_digest
                        ) VALUES (
                            entry_sequence, entry.time_ms, entry.event, entry.actor, entry.user_id, entry.device_id,
                            entry.challenge_id, entry.session_id, entry.client_address, entry.request_id, entry.outcome,
                            entry.details, entry_prev_hash, entry_hash, entry.personal_digest
                        );
                        RETURN NEXT;
                    END LOOP;
                END
                $$
                """,
                "CREATE INDEX challenges_expires_at ON challenges (expires_at)",
                "CREATE INDEX sessions_last_used_at ON sessions (last_used_at)",
                "CREATE INDEX sessions_challenge_id ON sessions (challenge_id)",
                "CREATE INDEX refresh_tokens_expires_at ON refresh_tokens (expires_at)",
                "CREATE INDEX webhook_deliveries_finished_at ON webhook_deliveries (finished_at) WHERE finished_at IS NOT NULL",
                "CREATE INDEX consents_challenge_id ON consents (challenge_id) WHERE challenge_id IS NOT NULL",
                "CREATE INDEX operations_challenge_id ON operations (challenge_id)",
            ]
        ),
        // v15-one-proof-function: the proof's commit function written once more as one
        // function, in place of the fold and the two wrappers around it (v3-challenge-signatures,
        // v4-delegated-tokens), which are dropped. It reads its argument as `jsonb`, parsed once:
        // each `->` on a `json` value lexes the whole text again, and the fold and its wrappers
        // did that about fifteen times per proof. It runs the same statements in the same order,
        // the used signatures and the session's client in the challenge's and the session's own
        // statements now. And a proof that completes a hosted consent page's challenge accepts
        // the consent in the same statement (`ProofCommit.consent`): the consent's
        // compare-and-set and its event after the proof's rows and before the audit appends
        // (the audit lock stays last), the consent's entry appended iff it was stored, which the
        // caller reads from the number of entries linked. An instance of the previous version
        // sends what it sent (no consent) and gets what it got.
        (
            "v15-one-proof-function",
            [
                """
                CREATE OR REPLACE FUNCTION sca_commit_proof(proof TEXT, entries TEXT)
                RETURNS TABLE (entry_sequence BIGINT, entry_prev_hash TEXT, entry_hash TEXT)
                LANGUAGE plpgsql VOLATILE AS $$
                DECLARE
                    p JSONB := proof::jsonb;
                    lockout JSONB := p->'lockout';
                    factor JSONB := p->'factor';
                    burn JSONB := p->'signature';
                    device JSONB := p->'device';
                    session JSONB := p->'session';
                    token JSONB := p->'refresh_token';
                    consent JSONB := p->'consent';
                    delivery JSONB := p->'consent'->'delivery';
                    counters RECORD;
                    next challenges;
                    accepted consents;
                    consent_stored BOOLEAN := FALSE;
                BEGIN
                    IF lockout IS NOT NULL THEN
                        SELECT u.failed_attempts, u.temporary_blocks, u.locked_until, u.permanently_locked INTO counters
                        FROM users u WHERE u.id = lockout->>'user_id' FOR NO KEY UPDATE;
                        IF NOT FOUND THEN
                            RAISE EXCEPTION 'no such user' USING ERRCODE = 'SCA05';
                        END IF;
                        IF (counters.failed_attempts, counters.temporary_blocks, counters.locked_until, counters.permanently_locked)
                            IS DISTINCT FROM ((lockout->>'failed_attempts')::BIGINT, (lockout->>'temporary_blocks')::BIGINT,
                                (lockout->>'locked_until')::DOUBLE PRECISION, (lockout->>'permanently_locked')::BOOLEAN) THEN
                            RAISE EXCEPTION 'the lockout counters changed' USING ERRCODE = 'SCA04', DETAIL = json_build_object(
                                'failed_attempts', counters.failed_attempts, 'temporary_blocks', counters.temporary_blocks,
                                'locked_until', counters.locked_until, 'permanently_locked', counters.permanently_locked)::TEXT;
                        END IF;
                        IF lockout->'next' IS NOT NULL THEN
                            UPDATE users SET
                                failed_attempts = (lockout->'next'->>'failed_attempts')::BIGINT,
                                temporary_blocks = (lockout->'next'->>'temporary_blocks')::BIGINT,
                                locked_until = (lockout->'next'->>'locked_until')::DOUBLE PRECISION,
                                permanently_locked = (lockout->'next'->>'permanently_locked')::BOOLEAN
                            WHERE id = lockout->>'user_id';
                        END IF;
                    END IF;
                    IF factor IS NOT NULL THEN
                        IF factor->>'kind' = 'code' THEN
                            UPDATE one_time_codes SET used = TRUE
                            WHERE challenge_id = factor->>'challenge_id' AND method = factor->>'method'
                                AND code_hash = decode(factor->>'code_hash', 'hex') AND NOT used
                                AND expires_at > (factor->>'now')::DOUBLE PRECISION;
                        ELSE
                            UPDATE users SET last_totp_step = (factor->>'step')::BIGINT
                            WHERE id = factor->>'user_id' AND (last_totp_step IS NULL OR last_totp_step < (factor->>'step')::BIGINT);
                        END IF;
                        IF NOT FOUND THEN
                            RAISE EXCEPTION 'the factor was used' USING ERRCODE = 'SCA03';
                        END IF;
                    END IF;
                    IF p->'challenge' IS NOT NULL THEN
                        next := jsonb_populate_record(NULL::challenges, p->'challenge');
                        UPDATE challenges SET
                            user_id = next.user_id, operation = next.operation, verdict = next.verdict,
                            required_categories = next.required_categories, methods = next.methods, nonce = next.nonce,
                            transaction_json = next.transaction_json, transaction_digest = next.transaction_digest,
                            device_id = next.device_id, state = next.state, accepted_methods = next.accepted_methods,
                            rejected_methods = next.rejected_methods, failed_attempts = next.failed_attempts,
                            created_at = next.created_at, expires_at = next.expires_at, completed_at = next.completed_at,
                            decoy_json = next.decoy_json, pending_method = next.pending_method, exemption = next.exemption,
                            extra_categories = next.extra_categories, version = next.version,
                            used_signature_hashes = coalesce(
                                decode(p->'challenge'->>'used_signatures_hex', 'hex'), used_signature_hashes)
                        WHERE id = next.id AND version = (p->>'expected_version')::BIGINT;
                        IF NOT FOUND THEN
                            RAISE EXCEPTION 'the challenge changed' USING ERRCODE = 'SCA01';
                        END IF;
                    END IF;
                    IF burn IS NOT NULL THEN
                        INSERT INTO used_signatures (hash, expires_at)
                        VALUES (decode(burn->>'hash', 'hex'), (burn->>'expires_at')::DOUBLE PRECISION)
                        ON CONFLICT (hash) DO UPDATE SET expires_at = EXCLUDED.expires_at
                        WHERE used_signatures.expires_at < (burn->>'now')::DOUBLE PRECISION;
                        IF NOT FOUND THEN
                            RAISE EXCEPTION 'the signature was used' USING ERRCODE = 'SCA02';
                        END IF;
                    END IF;
                    IF device IS NOT NULL THEN
                        UPDATE devices SET fail_count = 0, last_used_at = (device->>'now')::DOUBLE PRECISION
                        WHERE id = device->>'id';
                        IF NOT FOUND THEN
                            RAISE EXCEPTION 'no such device' USING ERRCODE = 'SCA05';
                        END IF;
                    END IF;
                    IF session IS NOT NULL THEN
                        INSERT INTO sessions (id, user_id, operation, challenge_id, created_at, last_used_at, revoked_at, client_id)
                        VALUES (
                            session->>'id', session->>'user_id', session->>'operation', session->>'challenge_id',
                            (session->>'created_at')::DOUBLE PRECISION, (session->>'last_used_at')::DOUBLE PRECISION,
                            (session->>'revoked_at')::DOUBLE PRECISION, session->>'client_id');
                    END IF;
                    IF token IS NOT NULL THEN
                        INSERT INTO refresh_tokens (token_hash, session_id, issued_at, expires_at, used_at)
                        VALUES (
                            decode(token->>'token_hash', 'hex'), token->>'session_id', (token->>'issued_at')::DOUBLE PRECISION,
                            (token->>'expires_at')::DOUBLE PRECISION, (token->>'used_at')::DOUBLE PRECISION);
                    END IF;
                    IF consent IS NOT NULL THEN
                        accepted := jsonb_populate_record(NULL::consents, consent->'row');
                        UPDATE consents SET
                            client_id = accepted.client_id, user_id = accepted.user_id, operation = accepted.operation,
                            transaction_json = accepted.transaction_json, beneficiary_json = accepted.beneficiary_json,
                            summary = accepted.summary, redirect_url = accepted.redirect_url,
                            resource_id = accepted.resource_id, status = accepted.status, created_at = accepted.created_at,
                            expires_at = accepted.expires_at, updated_at = accepted.updated_at,
                            challenge_id = accepted.challenge_id,
                            sealed_token = decode(consent->'row'->>'sealed_token_hex', 'hex'), version = accepted.version
                        WHERE id = accepted.id AND version = (consent->>'expected_version')::BIGINT;
                        consent_stored := FOUND;
                        IF consent_stored AND delivery IS NOT NULL
                            AND EXISTS (SELECT 1 FROM partner_webhooks w WHERE w.client_id = delivery->>'client_id')
                        THEN
                            INSERT INTO webhook_deliveries
                                (id, kind, client_id, subject_id, body, status, attempts, next_attempt_at, lease_until,
                                 last_http_status, created_at, finished_at, version)
                            SELECT d.id, d.kind, d.client_id, d.subject_id, d.body, d.status, d.attempts,
                                d.next_attempt_at, d.lease_until, d.last_http_status, d.created_at, d.finished_at, d.version
                            FROM jsonb_populate_record(NULL::webhook_deliveries, delivery) d;
                        END IF;
                    END IF;
                    IF entries IS NOT NULL THEN
                        RETURN QUERY SELECT a.entry_sequence, a.entry_prev_hash, a.entry_hash FROM sca_append_audit(entries) a;
                    END IF;
                    IF consent_stored THEN
                        RETURN QUERY SELECT a.entry_sequence, a.entry_prev_hash, a.entry_hash
                        FROM sca_append_audit(consent->>'entry') a;
                    END IF;
                END
                $$
                """,
                "DROP FUNCTION sca_commit_proof_v3_signatures(TEXT, TEXT)",
                "DROP FUNCTION sca_commit_proof_v3(TEXT, TEXT)",
            ]
        ),
        // An authorised payment's share of the running aggregates (v4-risk-aggregates) in one
        // statement: the lock and the five updates were six round trips of the transaction
        // that authorises it. Its statements are those the store sent one by one.
        (
            "v16-risk-aggregate-function",
            [
                """
                CREATE FUNCTION sca_add_risk_aggregates(
                    p_id TEXT, p_user TEXT, p_type TEXT, p_amount BIGINT, p_volume BIGINT, p_at DOUBLE PRECISION,
                    p_payee TEXT, p_address TEXT
                ) RETURNS VOID LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM pg_advisory_xact_lock(\(lockNamespace), hashtext(coalesce(current_schema(), '')) # \(riskAggregateLock));
                    UPDATE risk_payments SET
                        user_count_through = 1 + COALESCE((
                            SELECT p.user_count_through FROM risk_payments p
                            WHERE p.user_id = p_user AND p.authorised_at <= p_at AND p.challenge_id <> p_id
                            ORDER BY p.authorised_at DESC LIMIT 1), 0),
                        user_sum_through = p_amount + COALESCE((
                            SELECT p.user_sum_through FROM risk_payments p
                            WHERE p.user_id = p_user AND p.authorised_at <= p_at AND p.challenge_id <> p_id
                            ORDER BY p.authorised_at DESC LIMIT 1), 0),
                        volume_through = p_volume + COALESCE((
                            SELECT p.volume_through FROM risk_payments p
                            WHERE p.payment_type = p_type AND p.authorised_at <= p_at AND p.challenge_id <> p_id
                            ORDER BY p.authorised_at DESC LIMIT 1), 0)
                    WHERE challenge_id = p_id;
                    UPDATE risk_payments SET
                        user_count_through = user_count_through + CASE WHEN user_id = p_user THEN 1 ELSE 0 END,
                        user_sum_through = user_sum_through + CASE WHEN user_id = p_user THEN p_amount ELSE 0 END,
                        volume_through = volume_through + CASE WHEN payment_type = p_type THEN p_volume ELSE 0 END
                    WHERE authorised_at >= p_at AND challenge_id <> p_id AND (user_id = p_user OR payment_type = p_type);
                    INSERT INTO risk_user_seen (user_id, kind, value, last_at)
                    SELECT p_user, seen.kind, seen.value, p_at FROM (
                        VALUES ('payee', p_payee), ('address', p_address),
                            ('any_address', CASE WHEN p_address IS NULL THEN NULL ELSE '' END)
                    ) AS seen (kind, value)
                    WHERE seen.value IS NOT NULL
                    ON CONFLICT (user_id, kind, value) DO UPDATE SET last_at = GREATEST(risk_user_seen.last_at, excluded.last_at);
                    DELETE FROM risk_user_maxima
                    WHERE user_id = p_user AND authorised_at <= p_at AND authorised_at > COALESCE((
                            SELECT m.authorised_at FROM risk_user_maxima m WHERE m.user_id = p_user AND m.amount_minor > p_amount
                            ORDER BY m.amount_minor LIMIT 1), '-Infinity'::DOUBLE PRECISION)
                        AND NOT EXISTS (
                            SELECT 1 FROM risk_user_maxima m
                            WHERE m.user_id = p_user AND m.authorised_at >= p_at AND m.amount_minor >= p_amount);
                    INSERT INTO risk_user_maxima (user_id, authorised_at, amount_minor)
                    SELECT p_user, p_at, p_amount
                    WHERE NOT EXISTS (
                        SELECT 1 FROM risk_user_maxima m
                        WHERE m.user_id = p_user AND m.authorised_at >= p_at AND m.amount_minor >= p_amount);
                END
                $$
                """
            ]
        ),
    ]
}
