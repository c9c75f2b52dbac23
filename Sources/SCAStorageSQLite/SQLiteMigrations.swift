import GRDB

/// The schema, as an ordered list of named steps.
///
/// The identifiers name what a step does to the schema ("v1-users"), not when it was
/// written, and must never change once released: GRDB records them in `grdb_migrations` and
/// a PostgreSQL backend reuses them. A change to the schema is a new step appended here.
enum SQLiteMigrations {
    static let identifiers = steps.map(\.id)

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for step in steps {
            migrator.registerMigration(step.id) { db in
                try db.execute(sql: step.sql)
            }
        }
        return migrator
    }

    // Dates are REAL unix seconds; lists and the transaction are JSON text; secrets only
    // ever arrive here hashed or sealed.
    private static let steps: [(id: String, sql: String)] = [
        (
            "v1-users",
            """
            CREATE TABLE users (
                id TEXT PRIMARY KEY NOT NULL,
                email TEXT NOT NULL UNIQUE,
                phone TEXT,
                password_hash TEXT,
                pin_hash TEXT,
                sealed_totp_seed BLOB,
                email_otp_enabled INTEGER NOT NULL DEFAULT 0,
                roles TEXT NOT NULL DEFAULT '[]',
                created_at REAL NOT NULL,
                failed_attempts INTEGER NOT NULL DEFAULT 0,
                temporary_blocks INTEGER NOT NULL DEFAULT 0,
                locked_until REAL,
                permanently_locked INTEGER NOT NULL DEFAULT 0,
                last_totp_step INTEGER
            );
            CREATE INDEX users_created_at ON users (created_at);
            """
        ),
        (
            "v1-challenges",
            """
            CREATE TABLE challenges (
                id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT,
                operation TEXT NOT NULL,
                verdict TEXT NOT NULL,
                required_categories INTEGER NOT NULL,
                methods TEXT NOT NULL,
                nonce TEXT NOT NULL,
                transaction_json TEXT,
                transaction_digest TEXT,
                device_id TEXT,
                state TEXT NOT NULL,
                accepted_methods TEXT NOT NULL,
                rejected_methods TEXT NOT NULL,
                failed_attempts INTEGER NOT NULL DEFAULT 0,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                completed_at REAL,
                version INTEGER NOT NULL
            );
            CREATE INDEX challenges_user_id ON challenges (user_id);
            """
        ),
        (
            "v1-one-time-codes",
            """
            CREATE TABLE one_time_codes (
                challenge_id TEXT NOT NULL REFERENCES challenges (id) ON DELETE CASCADE,
                method TEXT NOT NULL,
                code_hash BLOB NOT NULL,
                sent_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                send_count INTEGER NOT NULL,
                used INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (challenge_id, method)
            );
            """
        ),
        (
            "v1-sessions",
            """
            CREATE TABLE sessions (
                id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                operation TEXT NOT NULL,
                challenge_id TEXT NOT NULL,
                created_at REAL NOT NULL,
                last_used_at REAL NOT NULL,
                revoked_at REAL
            );
            CREATE INDEX sessions_user_id ON sessions (user_id);
            """
        ),
        (
            "v1-refresh-tokens",
            """
            CREATE TABLE refresh_tokens (
                token_hash BLOB PRIMARY KEY NOT NULL,
                session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
                issued_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                used_at REAL
            );
            CREATE INDEX refresh_tokens_session_id ON refresh_tokens (session_id);
            """
        ),
        (
            "v1-consumed-tokens",
            """
            CREATE TABLE consumed_tokens (
                jti TEXT PRIMARY KEY NOT NULL,
                expires_at REAL NOT NULL
            );
            CREATE INDEX consumed_tokens_expires_at ON consumed_tokens (expires_at);
            """
        ),
        (
            "v1-signing-keys",
            """
            CREATE TABLE signing_keys (
                key_id TEXT PRIMARY KEY NOT NULL,
                algorithm TEXT NOT NULL,
                sealed_private_key BLOB NOT NULL,
                created_at REAL NOT NULL
            );
            CREATE INDEX signing_keys_created_at ON signing_keys (created_at);
            """
        ),
        (
            "v1-devices",
            """
            CREATE TABLE devices (
                id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES users (id),
                name TEXT NOT NULL,
                platform TEXT NOT NULL,
                possession_key BLOB NOT NULL,
                biometry_key BLOB,
                status TEXT NOT NULL,
                fail_count INTEGER NOT NULL DEFAULT 0,
                created_at REAL NOT NULL,
                last_used_at REAL
            );
            CREATE INDEX devices_user_id ON devices (user_id);
            """
        ),
        (
            "v1-activation-codes",
            """
            CREATE TABLE activation_codes (
                lookup_id TEXT PRIMARY KEY NOT NULL,
                code_hash BLOB NOT NULL,
                user_id TEXT NOT NULL REFERENCES users (id),
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                failed_tries INTEGER NOT NULL DEFAULT 0,
                used_at REAL
            );
            """
        ),
        (
            "v1-used-signatures",
            """
            CREATE TABLE used_signatures (
                hash BLOB PRIMARY KEY NOT NULL,
                expires_at REAL NOT NULL
            );
            CREATE INDEX used_signatures_expires_at ON used_signatures (expires_at);
            """
        ),
        (
            // The audit trail is append-only: the triggers refuse to change or delete an
            // entry through SQL. (Someone with the file can drop them; the hash chain is what
            // shows that.) Times are INTEGER milliseconds, the precision the hash covers.
            "v1-audit",
            """
            CREATE TABLE audit_entries (
                sequence INTEGER PRIMARY KEY NOT NULL,
                time_ms INTEGER NOT NULL,
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
            );
            CREATE INDEX audit_entries_time ON audit_entries (time_ms);
            CREATE TRIGGER audit_entries_no_update BEFORE UPDATE ON audit_entries
            BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END;
            CREATE TRIGGER audit_entries_no_delete BEFORE DELETE ON audit_entries
            BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END;
            """
        ),
        (
            // Send and challenge budgets: one row per counted use, so a window slides; a
            // use's row can go once `expires_at` (its time plus the budget's window) has
            // passed. A decoy challenge keeps a keyed hash of what was typed (`decoy_json`).
            "v2-rate-limits",
            """
            CREATE TABLE rate_events (
                budget_key TEXT NOT NULL,
                at REAL NOT NULL,
                expires_at REAL NOT NULL
            );
            CREATE INDEX rate_events_key_at ON rate_events (budget_key, at);
            CREATE INDEX rate_events_expires_at ON rate_events (expires_at);
            ALTER TABLE challenges ADD COLUMN decoy_json TEXT;
            """
        ),
        // v2-unknown-address-lockout: failure counters for addresses that match no user
        // (keyed by a keyed hash of the address, never the address), and the proof a challenge is checking right now.
        (
            "v2-unknown-address-lockout",
            """
            CREATE TABLE unknown_address_lockouts (
                key TEXT PRIMARY KEY NOT NULL,
                failed_attempts INTEGER NOT NULL DEFAULT 0,
                temporary_blocks INTEGER NOT NULL DEFAULT 0,
                locked_until REAL,
                permanently_locked INTEGER NOT NULL DEFAULT 0
            );
            ALTER TABLE challenges ADD COLUMN pending_method TEXT;
            """
        ),
        // v3-unknown-address-columns: an unknown address keeps a whole LockoutState,
        // so it is decoded and stored by the same columns as a user's.
        ("v3-unknown-address-columns", "ALTER TABLE unknown_address_lockouts ADD COLUMN last_totp_step INTEGER;"),
        // v3-admin-keys: scoped admin API keys, stored as a SHA-256 hash only.
        (
            "v3-admin-keys",
            """
            CREATE TABLE admin_keys (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL UNIQUE,
                scopes TEXT NOT NULL,
                key_hash BLOB NOT NULL,
                created_at REAL NOT NULL,
                last_used_at REAL,
                revoked_at REAL
            );
            """
        ),
        // v3-risk: the risk engine's per-user and provider states (one JSON record
        // per key, changed in one transaction), the payments it decided on (history for the
        // monitoring signals, volume for the fraud rates), fraud reports, and the exemption a
        // challenge completed under.
        (
            "v3-risk",
            """
            CREATE TABLE risk_states (
                key TEXT PRIMARY KEY NOT NULL,
                state_json TEXT NOT NULL
            );
            CREATE TABLE risk_payments (
                challenge_id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                created_at REAL NOT NULL,
                authorised_at REAL,
                amount_minor INTEGER NOT NULL,
                amount TEXT NOT NULL,
                currency TEXT NOT NULL,
                payment_type TEXT NOT NULL,
                payee_key TEXT NOT NULL,
                iban TEXT,
                transaction_digest TEXT NOT NULL,
                client_address TEXT,
                device_id TEXT,
                exemption TEXT,
                recurring INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX risk_payments_user_authorised ON risk_payments (user_id, authorised_at);
            CREATE INDEX risk_payments_authorised ON risk_payments (authorised_at);
            CREATE INDEX risk_payments_digest ON risk_payments (transaction_digest);
            CREATE TABLE fraud_reports (
                id TEXT PRIMARY KEY NOT NULL,
                transaction_digest TEXT UNIQUE,
                amount_minor INTEGER NOT NULL,
                payment_type TEXT NOT NULL,
                occurred_at REAL NOT NULL,
                reported_at REAL NOT NULL
            );
            CREATE INDEX fraud_reports_occurred ON fraud_reports (occurred_at);
            ALTER TABLE challenges ADD COLUMN exemption TEXT;
            """
        ),
        // v3-partners: partner clients of the hosted pages, the authorization codes
        // their sign-ins granted (by hash; kept after use so a replay can revoke the session),
        // and consents to single operations.
        (
            "v3-partners",
            """
            CREATE TABLE partner_clients (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                secret_hash BLOB,
                redirect_uris TEXT NOT NULL,
                consent_redirect_uris TEXT NOT NULL,
                scopes TEXT NOT NULL,
                created_at REAL NOT NULL
            );
            CREATE TABLE authorization_grants (
                code_hash BLOB PRIMARY KEY NOT NULL,
                client_id TEXT NOT NULL,
                redirect_uri TEXT NOT NULL,
                user_id TEXT NOT NULL,
                session_id TEXT NOT NULL,
                scopes TEXT NOT NULL,
                nonce TEXT,
                code_challenge TEXT NOT NULL,
                auth_time REAL NOT NULL,
                sealed_tokens BLOB NOT NULL,
                expires_at REAL NOT NULL,
                redeemed_at REAL
            );
            CREATE INDEX authorization_grants_session ON authorization_grants (session_id);
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
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                challenge_id TEXT,
                sealed_token BLOB,
                version INTEGER NOT NULL
            );
            """
        ),
        // v3-passkeys: WebAuthn credentials registered to users. The credential id
        // is unique across users; a counter that goes backwards marks a row `suspect`.
        (
            "v3-passkeys",
            """
            CREATE TABLE passkeys (
                id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES users (id),
                credential_id BLOB NOT NULL UNIQUE,
                public_key BLOB NOT NULL,
                sign_count INTEGER NOT NULL,
                backup_eligible INTEGER NOT NULL,
                backed_up INTEGER NOT NULL,
                aaguid BLOB NOT NULL,
                attestation_type TEXT NOT NULL,
                attestation_format TEXT NOT NULL,
                name TEXT NOT NULL,
                status TEXT NOT NULL,
                created_at REAL NOT NULL,
                last_used_at REAL
            );
            CREATE INDEX passkeys_user_id ON passkeys (user_id);
            """
        ),
        // v3-operations: decoupled operations a backend asks the bound phone to
        // approve; each owns a challenge and reaches one final status by compare-and-set.
        (
            "v3-operations",
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
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                finished_at REAL,
                sealed_token BLOB,
                version INTEGER NOT NULL
            );
            CREATE INDEX operations_device_status ON operations (device_id, status);
            CREATE INDEX authorization_grants_client_user ON authorization_grants (client_id, user_id);
            """
        ),
        // v3-passkey-proofs: the categories a proof proved besides its method's own (a
        // user-verified passkey proves possession and inherence), per challenge.
        (
            "v3-passkey-proofs",
            """
            ALTER TABLE challenges ADD COLUMN extra_categories TEXT NOT NULL DEFAULT '[]';
            """
        ),
        // v3-signup: a user's name and custom attributes, one JSON column.
        ("v3-signup", "ALTER TABLE users ADD COLUMN profile_json TEXT;"),
        // v3-partner-webhooks: a partner client's webhook (secret sealed, not hashed:
        // the server signs with it) and the durable outbox of its events.
        (
            "v3-partner-webhooks",
            """
            CREATE TABLE partner_webhooks (
                client_id TEXT PRIMARY KEY NOT NULL,
                url TEXT NOT NULL,
                sealed_secret BLOB NOT NULL,
                created_at REAL NOT NULL
            );
            CREATE TABLE webhook_deliveries (
                id TEXT PRIMARY KEY NOT NULL,
                client_id TEXT NOT NULL,
                operation_id TEXT NOT NULL,
                body TEXT NOT NULL,
                status TEXT NOT NULL,
                attempts INTEGER NOT NULL,
                next_attempt_at REAL NOT NULL,
                lease_until REAL,
                last_http_status INTEGER,
                created_at REAL NOT NULL,
                finished_at REAL,
                version INTEGER NOT NULL
            );
            CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
            CREATE INDEX operations_status_expires ON operations (status, expires_at);
            """
        ),
        // v3-proof-path: each user's count of active passkeys, kept by the passkey
        // operations, so opening a challenge reads the user alone.
        (
            "v3-proof-path",
            """
            ALTER TABLE users ADD COLUMN active_passkeys INTEGER NOT NULL DEFAULT 0;
            UPDATE users SET active_passkeys =
                (SELECT COUNT(*) FROM passkeys WHERE passkeys.user_id = users.id AND passkeys.status = 'active');
            """
        ),
        // v3-webhook-events: the outbox carries consent events as well as operation
        // events, so its column names the event's subject rather than an operation.
        ("v3-webhook-events", "ALTER TABLE webhook_deliveries RENAME COLUMN operation_id TO subject_id;"),
        // v3-signup-phone: the E.164 number a user who signed up by phone signs in
        // with. Unique (NULLs apart), unlike `phone`, which several users may share for SMS.
        (
            "v3-signup-phone",
            """
            ALTER TABLE users ADD COLUMN login_phone TEXT;
            CREATE UNIQUE INDEX users_login_phone_key ON users (login_phone);
            """
        ),
        // v3-audit-append links PostgreSQL's audit entries in the database; SQLite's
        // single writer links them in Swift as before. Recorded so that both histories read alike.
        ("v3-audit-append", "SELECT 1;"),
        // v3-proof-fold writes a PostgreSQL proof in one call of a database function;
        // SQLite's proof is one in-process transaction already. Recorded so both histories read alike.
        ("v3-proof-fold", "SELECT 1;"),
        // v3-challenge-signatures: a device signature's burn is kept on the challenge
        // it signs (its hash appended to this column by the proof's compare-and-set), not in
        // `used_signatures`: the burn lives exactly as long as its challenge, and a proof's
        // write touches one table fewer. (`used_signatures` keeps the other burns: passkey
        // assertions and registrations, device requests, deliveries.)
        ("v3-challenge-signatures", "ALTER TABLE challenges ADD COLUMN used_signature_hashes BLOB NOT NULL DEFAULT x'';"),
        // v4-delegated-tokens: a challenge opened for a partner (a hosted sign-in, a consent, a
        // partner's operation) names it, and so does every session its proofs open, so that no
        // token of it is ever a first-party token. Sessions opened before this step are given
        // the client of the grant, consent or operation they came from: their tokens, signed
        // without a client, are then refused as first-party tokens and as the partner's alike.
        (
            "v4-delegated-tokens",
            """
            ALTER TABLE challenges ADD COLUMN delegation_json TEXT;
            ALTER TABLE sessions ADD COLUMN client_id TEXT;
            CREATE INDEX sessions_client_id ON sessions (client_id) WHERE client_id IS NOT NULL;
            UPDATE sessions SET client_id =
                (SELECT g.client_id FROM authorization_grants g WHERE g.session_id = sessions.id);
            UPDATE sessions SET client_id =
                (SELECT c.client_id FROM consents c WHERE c.challenge_id = sessions.challenge_id)
            WHERE client_id IS NULL;
            UPDATE sessions SET client_id =
                (SELECT o.client_id FROM operations o WHERE o.challenge_id = sessions.challenge_id)
            WHERE client_id IS NULL;
            """
        ),
        // v4-risk-aggregates: what a payment's risk decision reads, kept as running aggregates
        // in the write that authorises each payment (or records each fraud report), so that a
        // payment reads a few rows whatever the user's or the installation's history:
        // - `user_count_through`, `user_sum_through`: the user's authorised payments up to and
        //   including this one's authorisation instant (ties together), counted and summed;
        // - `volume_through`: the same over every user's payments of this type, of what counts
        //   for the fraud rates (authenticated or exempted by TRA);
        // - `risk_user_seen`: when a payee or a client address was last paid from, and
        //   (`any_address`) when any address was;
        // - `risk_user_maxima`: the payments no later payment of the user reaches in amount;
        // - `fraud_days`: fraud reported, per type and UTC day the payment occurred, with the
        //   running total through that day (so any range of days is two index seeks).
        // Filled from the rows already there, so every figure reads the same after the upgrade.
        (
            "v4-risk-aggregates",
            """
            ALTER TABLE risk_payments ADD COLUMN user_count_through INTEGER;
            ALTER TABLE risk_payments ADD COLUMN user_sum_through INTEGER;
            ALTER TABLE risk_payments ADD COLUMN volume_through INTEGER;
            CREATE INDEX risk_payments_type_authorised ON risk_payments (payment_type, authorised_at);
            CREATE TABLE risk_user_seen (
                user_id TEXT NOT NULL,
                kind TEXT NOT NULL,
                value TEXT NOT NULL,
                last_at REAL NOT NULL,
                PRIMARY KEY (user_id, kind, value)
            ) WITHOUT ROWID;
            CREATE TABLE risk_user_maxima (
                user_id TEXT NOT NULL,
                authorised_at REAL NOT NULL,
                amount_minor INTEGER NOT NULL,
                PRIMARY KEY (user_id, authorised_at)
            ) WITHOUT ROWID;
            CREATE INDEX risk_user_maxima_amount ON risk_user_maxima (user_id, amount_minor);
            CREATE TABLE fraud_days (
                payment_type TEXT NOT NULL,
                day INTEGER NOT NULL,
                amount_minor INTEGER NOT NULL,
                amount_through INTEGER NOT NULL,
                PRIMARY KEY (payment_type, day)
            ) WITHOUT ROWID;
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
            WHERE risk_payments.challenge_id = totals.challenge_id;
            INSERT INTO risk_user_seen (user_id, kind, value, last_at)
                SELECT user_id, 'payee', payee_key, MAX(authorised_at) FROM risk_payments
                WHERE authorised_at IS NOT NULL GROUP BY user_id, payee_key;
            INSERT INTO risk_user_seen (user_id, kind, value, last_at)
                SELECT user_id, 'address', client_address, MAX(authorised_at) FROM risk_payments
                WHERE authorised_at IS NOT NULL AND client_address IS NOT NULL GROUP BY user_id, client_address;
            INSERT INTO risk_user_seen (user_id, kind, value, last_at)
                SELECT user_id, 'any_address', '', MAX(authorised_at) FROM risk_payments
                WHERE authorised_at IS NOT NULL AND client_address IS NOT NULL GROUP BY user_id;
            INSERT INTO risk_user_maxima (user_id, authorised_at, amount_minor)
                SELECT user_id, authorised_at, amount_minor FROM (
                    SELECT user_id, authorised_at, amount_minor,
                        MAX(amount_minor) OVER (
                            PARTITION BY user_id ORDER BY authorised_at DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
                        ) AS later_largest
                    FROM (
                        SELECT user_id, authorised_at, MAX(amount_minor) AS amount_minor FROM risk_payments
                        WHERE authorised_at IS NOT NULL GROUP BY user_id, authorised_at
                    )
                )
                WHERE later_largest IS NULL OR amount_minor > later_largest;
            INSERT INTO fraud_days (payment_type, day, amount_minor, amount_through)
                SELECT payment_type, day, amount_minor, SUM(amount_minor) OVER (PARTITION BY payment_type ORDER BY day) FROM (
                    SELECT payment_type, day, SUM(amount_minor) AS amount_minor FROM (
                        SELECT payment_type, amount_minor,
                            guess - (guess * 86400.0 > occurred_at) + ((guess + 1) * 86400.0 <= occurred_at) AS day
                        FROM (
                            SELECT payment_type, amount_minor, occurred_at, CAST(occurred_at / 86400 AS INTEGER) AS guess
                            FROM fraud_reports
                        )
                    )
                    GROUP BY payment_type, day
                );
            """
        ),
        // v5-client-keys: a partner client's profile (`fapi2` holds it to the FAPI 2.0 Security
        // Profile) and its public keys, for clients that prove themselves with a signed assertion
        // instead of a shared secret; and the key a session's tokens are bound to (DPoP).
        // Clients registered before are `standard`, without keys; sessions stay bearer.
        (
            "v5-client-keys",
            """
            ALTER TABLE partner_clients ADD COLUMN profile TEXT NOT NULL DEFAULT 'standard';
            ALTER TABLE partner_clients ADD COLUMN jwks TEXT;
            ALTER TABLE sessions ADD COLUMN key_thumbprint TEXT;
            """
        ),
        // v6-partner-requests: what a partner client's authorization requests may carry and must
        // be: the `authorization_details` types (RFC 9396) it may ask users to approve, and
        // whether its pushed requests must be signed request objects (RFC 9101); and where its
        // users may go back after a logout. Clients registered before ask by scope only, signed
        // or not, and keep their users on the signed-out page.
        (
            "v6-partner-requests",
            """
            ALTER TABLE partner_clients ADD COLUMN authorization_details_types TEXT NOT NULL DEFAULT '[]';
            ALTER TABLE partner_clients ADD COLUMN require_signed_request_object INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE partner_clients ADD COLUMN post_logout_redirect_uris TEXT NOT NULL DEFAULT '[]';
            """
        ),
        // v7-partner-notifications: what the server tells a partner on its own. A client may
        // publish its keys at a URL, be told when one of its sessions ends (back-channel
        // logout), and be pinged when a CIBA request has its answer; the outbox carries the
        // three kinds of message. Clients registered before keep inline keys, no logout
        // messages and poll mode; queued deliveries are webhook events.
        (
            "v7-partner-notifications",
            """
            ALTER TABLE partner_clients ADD COLUMN jwks_uri TEXT;
            ALTER TABLE partner_clients ADD COLUMN backchannel_logout_uri TEXT;
            ALTER TABLE partner_clients ADD COLUMN ciba_notification_endpoint TEXT;
            ALTER TABLE operations ADD COLUMN sealed_notification BLOB;
            ALTER TABLE webhook_deliveries ADD COLUMN kind TEXT NOT NULL DEFAULT 'event';
            """
        ),
        // v8-signing-key-activation: token-signing keys rotate. A rotated key is stored ahead of
        // the instant it starts to sign, so that it is published first; keys stored before
        // activate at their creation, so the newest of them keeps signing.
        (
            "v8-signing-key-activation",
            """
            ALTER TABLE signing_keys ADD COLUMN activates_at REAL NOT NULL DEFAULT 0;
            UPDATE signing_keys SET activates_at = created_at;
            CREATE INDEX signing_keys_activates_at ON signing_keys (activates_at);
            """
        ),
        // v9-console-lookups: what the operator console looks up. A user's timeline reads the
        // newest audit entries that name them, and a search finds users by the phone they
        // receive codes on.
        (
            "v9-console-lookups",
            """
            CREATE INDEX audit_entries_user ON audit_entries (user_id, sequence) WHERE user_id IS NOT NULL;
            CREATE INDEX users_phone ON users (phone) WHERE phone IS NOT NULL;
            """
        ),
        // v10-recovery-sheets: one recovery sheet per user, the code and the PUKs as keyed
        // digests only, with failure counters of its own (a recovery is not a sign-in).
        (
            "v10-recovery-sheets",
            """
            CREATE TABLE recovery_sheets (
                user_id TEXT PRIMARY KEY NOT NULL REFERENCES users (id),
                code_digest BLOB NOT NULL UNIQUE,
                puk_digests BLOB NOT NULL,
                used_puks INTEGER NOT NULL DEFAULT 0,
                failed_attempts INTEGER NOT NULL DEFAULT 0,
                temporary_blocks INTEGER NOT NULL DEFAULT 0,
                locked_until REAL,
                permanently_locked INTEGER NOT NULL DEFAULT 0,
                last_totp_step INTEGER,
                created_at REAL NOT NULL
            );
            """
        ),
        // v11-console-reports: what the console's risk and audit pages read. The exemptions
        // granted per week count exempted payments in a time range, from an index that holds
        // those alone; the audit view filters the trail by event, newest first.
        (
            "v11-console-reports",
            """
            CREATE INDEX risk_payments_exempted ON risk_payments (authorised_at, exemption) WHERE exemption IS NOT NULL;
            CREATE INDEX audit_entries_event ON audit_entries (event, sequence);
            """
        ),
        // v12-password-reset: a password reset proven with one element restricts the account
        // until an operator lifts it; the column holds when the cooling-off ends (null: not
        // restricted).
        (
            "v12-password-reset",
            """
            ALTER TABLE users ADD COLUMN restricted_until REAL;
            """
        ),
        // v13-partner-health: the console's partners page counts each client's consents and
        // webhook deliveries by status, and lists the failed ones newest first.
        (
            "v13-partner-health",
            """
            CREATE INDEX consents_client_status ON consents (client_id, status);
            CREATE INDEX webhook_deliveries_client ON webhook_deliveries (client_id, status, created_at);
            """
        ),
        // v14-audit-lifecycle: an entry's personal facts (address, passkey name, masked IBAN)
        // stay in their columns but the chain hashes their keyed digest (`personal_digest`), so
        // erasing a person clears the facts and leaves the chain whole: the update trigger now
        // refuses every change but that clearing. The trail's oldest entries may leave for an
        // archive, up to a cut recorded in `audit_cuts` first; the delete trigger refuses any
        // other delete. Retention deletes by time: challenges, sessions and deliveries get the
        // indexes their purge reads.
        (
            "v14-audit-lifecycle",
            """
            ALTER TABLE audit_entries ADD COLUMN personal_digest TEXT;
            CREATE TABLE audit_cuts (
                through_sequence INTEGER PRIMARY KEY NOT NULL,
                hash TEXT NOT NULL,
                checkpoint TEXT NOT NULL,
                archive TEXT NOT NULL,
                cut_at REAL NOT NULL
            );
            DROP TRIGGER audit_entries_no_update;
            DROP TRIGGER audit_entries_no_delete;
            CREATE TRIGGER audit_entries_no_update BEFORE UPDATE OF
                sequence, time_ms, event, actor, user_id, device_id, challenge_id, session_id, request_id,
                outcome, prev_hash, hash, personal_digest ON audit_entries
            BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END;
            CREATE TRIGGER audit_entries_facts_erased_only BEFORE UPDATE OF client_address, details ON audit_entries
            WHEN OLD.personal_digest IS NULL OR NEW.client_address IS NOT NULL
            BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END;
            CREATE TRIGGER audit_entries_no_delete BEFORE DELETE ON audit_entries
            WHEN OLD.sequence > (SELECT coalesce(max(through_sequence), 0) FROM audit_cuts)
            BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END;
            CREATE INDEX challenges_expires_at ON challenges (expires_at);
            CREATE INDEX sessions_last_used_at ON sessions (last_used_at);
            CREATE INDEX refresh_tokens_expires_at ON refresh_tokens (expires_at);
            CREATE INDEX webhook_deliveries_finished_at ON webhook_deliveries (finished_at) WHERE finished_at IS NOT NULL;
            CREATE INDEX consents_challenge_id ON consents (challenge_id) WHERE challenge_id IS NOT NULL;
            CREATE INDEX operations_challenge_id ON operations (challenge_id);
            CREATE INDEX sessions_challenge_id ON sessions (challenge_id);
            """
        ),
        // v15-one-proof-function rewrites PostgreSQL's one-statement proof (parsed once, and
        // deciding the hosted page's consent); SQLite's proof transaction does that in Swift.
        // Recorded so both histories read alike.
        ("v15-one-proof-function", "SELECT 1;"),
        // v16-risk-aggregate-function folds PostgreSQL's aggregate updates into one statement;
        // SQLite runs them in its own process already. Recorded so both histories read alike.
        ("v16-risk-aggregate-function", "SELECT 1;"),
    ]
}
