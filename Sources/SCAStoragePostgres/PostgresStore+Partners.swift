import Foundation
import PostgresNIO
import SCACore
import SCAStorage

// Partner clients, authorization codes and consents (v3-partners): load, apply, store. What a
// move means is decided by the callers' pure rules (`ConsentRecord.move`).
extension PostgresStore {
    package func createPartnerClient(_ client: PartnerClientRecord) async throws {
        let redirects = try JSONColumn.text(client.redirectURIs)
        let consentRedirects = try JSONColumn.text(client.consentRedirectURIs)
        let scopes = try JSONColumn.text(client.scopes)
        let detailTypes = try JSONColumn.text(client.authorizationDetailsTypes)
        let logoutRedirects = try JSONColumn.text(client.postLogoutRedirectURIs)
        do {
            _ = try await rows(
                """
                INSERT INTO partner_clients
                    (id, name, secret_hash, redirect_uris, consent_redirect_uris, scopes, created_at, profile, jwks,
                     authorization_details_types, require_signed_request_object, post_logout_redirect_uris,
                     jwks_uri, backchannel_logout_uri, ciba_notification_endpoint)
                VALUES (\(client.id), \(client.name), \(client.secretHash.map(bytea)), \(redirects), \(consentRedirects),
                        \(scopes), \(client.createdAt.unixSeconds), \(client.profile.rawValue), \(client.jwks),
                        \(detailTypes), \(client.requireSignedRequestObject), \(logoutRedirects), \(client.jwksURI),
                        \(client.backchannelLogoutURI), \(client.cibaNotificationEndpoint))
                """)
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("id")
        }
    }

    package func partnerClient(id: String) async throws -> PartnerClientRecord? {
        try await rows("SELECT * FROM partner_clients WHERE id = \(id)").first.map(PartnerClientRecord.init(row:))
    }

    package func partnerClients() async throws -> [PartnerClientRecord] {
        try await rows("SELECT * FROM partner_clients ORDER BY created_at, id").map(PartnerClientRecord.init(row:))
    }

    package func removePartnerClient(id: String, now: Date) async throws -> Bool {
        // One statement, so the client and its sessions go together.
        try await !rows(
            """
            WITH removed AS (DELETE FROM partner_clients WHERE id = \(id) RETURNING id),
            ended AS (
                UPDATE sessions SET revoked_at = \(now.unixSeconds)
                WHERE client_id = \(id) AND revoked_at IS NULL AND EXISTS (SELECT 1 FROM removed)
            )
            SELECT id FROM removed
            """
        ).isEmpty
    }

    package func insertAuthorizationGrant(_ grant: AuthorizationGrantRecord) async throws {
        let scopes = try JSONColumn.text(grant.scopes)
        do {
            _ = try await rows(
                """
                INSERT INTO authorization_grants
                    (code_hash, client_id, redirect_uri, user_id, session_id, scopes, nonce, code_challenge,
                     auth_time, sealed_tokens, expires_at, redeemed_at)
                VALUES (\(bytea(grant.codeHash)), \(grant.clientID), \(grant.redirectURI), \(grant.userID),
                        \(grant.sessionID), \(scopes), \(grant.nonce), \(grant.codeChallenge),
                        \(grant.authTime.unixSeconds), \(bytea(grant.sealedTokens)), \(grant.expiresAt.unixSeconds),
                        \(grant.redeemedAt?.unixSeconds))
                """)
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("code")
        }
    }

    /// The row is locked while it is read and marked, so of two redemptions at once, from any
    /// instance, exactly one is first.
    package func redeemAuthorizationCode(codeHash: [UInt8], now: Date) async throws -> CodeRedemption {
        try await transaction { [self] connection in
            let row = try await connection.rows(
                "SELECT * FROM authorization_grants WHERE code_hash = \(bytea(codeHash)) FOR UPDATE", logger: logger
            ).first
            guard var grant = try row.map(AuthorizationGrantRecord.init(row:)) else { return .unknown }
            if grant.redeemedAt != nil { return .alreadyRedeemed(grant) }
            _ = try await connection.rows(
                "UPDATE authorization_grants SET redeemed_at = \(now.unixSeconds) WHERE code_hash = \(bytea(codeHash))",
                logger: logger)
            grant.redeemedAt = now
            return .redeemed(grant)
        }
    }

    package func authorizationGrant(sessionID: String) async throws -> AuthorizationGrantRecord? {
        try await rows("SELECT * FROM authorization_grants WHERE session_id = \(sessionID)").first
            .map(AuthorizationGrantRecord.init(row:))
    }

    /// The consent and its entry in one statement, as ``insertChallenge(_:auditing:)``.
    package func insertConsent(_ consent: ConsentRecord, auditing entry: AuditEntryDraft) async throws {
        let transaction = try consent.transaction.map { try JSONColumn.text($0) }
        let beneficiary = try consent.beneficiary.map { try JSONColumn.text($0) }
        let insert: PostgresQuery = """
                WITH inserted AS (INSERT INTO consents
                    (id, client_id, user_id, operation, transaction_json, beneficiary_json, summary, redirect_url,
                     resource_id, status, created_at, expires_at, updated_at, challenge_id, sealed_token, version)
                VALUES (\(consent.id), \(consent.clientID), \(consent.userID), \(consent.operation.rawValue),
                        \(transaction), \(beneficiary), \(consent.summary), \(consent.redirectURL), \(consent.resourceID),
                        \(consent.status.rawValue), \(consent.createdAt.unixSeconds), \(consent.expiresAt.unixSeconds),
                        \(consent.updatedAt.unixSeconds), \(consent.challengeID), \(consent.sealedToken.map(bytea)),
                        \(consent.version))
                RETURNING id)
                """
        let parts = [AuditEntry.canonicalParts(of: entry)]
        let query = try Self.appendQuery([entry], parts: parts, prefix: insert)
        do {
            _ = try await rows(query)
        } catch let error as PSQLError where error.isUniqueViolation {
            throw StoreError.conflict("id")
        }
    }

    package func consent(id: String) async throws -> ConsentRecord? {
        try await rows("SELECT * FROM consents WHERE id = \(id)").first.map(ConsentRecord.init(row:))
    }

    /// One statement, so one round trip and one snapshot: outer joins on the consent's row, one
    /// row per device of the user (one row when there is none).
    package func consentContext(id: String) async throws -> ConsentContext? {
        let separator = Columns.partSeparator
        let query: PostgresQuery = """
            SELECT c.*, NULL AS \(unescaped: separator), p.name, NULL AS \(unescaped: separator), u.*,
                NULL AS \(unescaped: separator), ch.*, NULL AS \(unescaped: separator), d.*
            FROM consents c
                LEFT JOIN partner_clients p ON p.id = c.client_id
                LEFT JOIN users u ON u.id = c.user_id
                LEFT JOIN challenges ch ON ch.id = c.challenge_id
                LEFT JOIN devices d ON d.user_id = c.user_id
            WHERE c.id = \(id)
            ORDER BY d.created_at, d.id
            """
        let found = try await rows(query)
        guard let first = found.first else { return nil }
        let parts = Columns.parts(of: first)
        guard parts.count == 5 else { throw PostgresStoreError(reason: "the consent context has \(parts.count) parts") }
        let devices = try found.compactMap { row in
            try Columns.parts(of: row).last.flatMap(DeviceRecord.init(part:))
        }
        return ConsentContext(
            consent: try ConsentRecord(columns: parts[0]), clientName: try parts[1].isNull("name") ? nil : parts[1].string("name"),
            user: try UserRecord(part: parts[2]), challenge: try ChallengeRecord(part: parts[3]), devices: devices)
    }

    package func updateConsent(_ consent: ConsentRecord, expectedVersion: Int) async throws -> Bool {
        try await rows(try Self.consentUpdate(consent, expectedVersion: expectedVersion)).count == 1
    }

    /// The compare-and-set of `consent`; it returns one row when it won.
    static func consentUpdate(_ consent: ConsentRecord, expectedVersion: Int) throws -> PostgresQuery {
        let transaction = try consent.transaction.map { try JSONColumn.text($0) }
        let beneficiary = try consent.beneficiary.map { try JSONColumn.text($0) }
        return """
            UPDATE consents SET
                client_id = \(consent.clientID), user_id = \(consent.userID), operation = \(consent.operation.rawValue),
                transaction_json = \(transaction), beneficiary_json = \(beneficiary), summary = \(consent.summary),
                redirect_url = \(consent.redirectURL), resource_id = \(consent.resourceID),
                status = \(consent.status.rawValue), created_at = \(consent.createdAt.unixSeconds),
                expires_at = \(consent.expiresAt.unixSeconds), updated_at = \(consent.updatedAt.unixSeconds),
                challenge_id = \(consent.challengeID), sealed_token = \(consent.sealedToken.map(bytea)),
                version = \(expectedVersion + 1)
            WHERE id = \(consent.id) AND version = \(expectedVersion)
            RETURNING id
            """
    }
}
