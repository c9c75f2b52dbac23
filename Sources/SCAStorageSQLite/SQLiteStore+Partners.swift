import Foundation
import GRDB
import SCACore
import SCAStorage

// Partner clients, authorization codes and consents (v3-partners): load, apply, store. What a
// move means is decided by the callers' pure rules (`ConsentRecord.move`).
extension SQLiteStore {
    package func createPartnerClient(_ client: PartnerClientRecord) async throws {
        let redirects = try JSONColumn.text(client.redirectURIs)
        let consentRedirects = try JSONColumn.text(client.consentRedirectURIs)
        let scopes = try JSONColumn.text(client.scopes)
        let detailTypes = try JSONColumn.text(client.authorizationDetailsTypes)
        let logoutRedirects = try JSONColumn.text(client.postLogoutRedirectURIs)
        try await write { db in
            do {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO partner_clients
                            (id, name, secret_hash, redirect_uris, consent_redirect_uris, scopes, created_at, profile, jwks,
                             authorization_details_types, require_signed_request_object, post_logout_redirect_uris,
                             jwks_uri, backchannel_logout_uri, ciba_notification_endpoint)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """).execute(
                    arguments: [
                        client.id, client.name, client.secretHash.map { Data($0) }, redirects, consentRedirects, scopes,
                        client.createdAt.unixSeconds, client.profile.rawValue, client.jwks, detailTypes,
                        client.requireSignedRequestObject, logoutRedirects, client.jwksURI, client.backchannelLogoutURI,
                        client.cibaNotificationEndpoint,
                    ])
            } catch let error as DatabaseError where error.isUniquenessViolation {
                throw StoreError.conflict("id")
            }
        }
    }

    package func partnerClient(id: String) async throws -> PartnerClientRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM partner_clients WHERE id = ?").fetchOne(PartnerClientRecord.self, arguments: [id])
        }
    }

    package func partnerClients() async throws -> [PartnerClientRecord] {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM partner_clients ORDER BY created_at, id").fetchAll(PartnerClientRecord.self)
        }
    }

    package func removePartnerClient(id: String, now: Date) async throws -> Bool {
        try await write { db in
            try db.cachedStatement(sql: "DELETE FROM partner_clients WHERE id = ?").execute(arguments: [id])
            guard db.changesCount == 1 else { return false }
            try db.cachedStatement(sql: "UPDATE sessions SET revoked_at = ? WHERE client_id = ? AND revoked_at IS NULL")
                .execute(arguments: [now.unixSeconds, id])
            return true
        }
    }

    package func insertAuthorizationGrant(_ grant: AuthorizationGrantRecord) async throws {
        let scopes = try JSONColumn.text(grant.scopes)
        try await write { db in
            do {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO authorization_grants
                            (code_hash, client_id, redirect_uri, user_id, session_id, scopes, nonce, code_challenge,
                             auth_time, sealed_tokens, expires_at, redeemed_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """).execute(
                    arguments: [
                        Data(grant.codeHash), grant.clientID, grant.redirectURI, grant.userID, grant.sessionID, scopes,
                        grant.nonce, grant.codeChallenge, grant.authTime.unixSeconds, Data(grant.sealedTokens),
                        grant.expiresAt.unixSeconds, grant.redeemedAt?.unixSeconds,
                    ])
            } catch let error as DatabaseError where error.isUniquenessViolation {
                throw StoreError.conflict("code")
            }
        }
    }

    package func redeemAuthorizationCode(codeHash: [UInt8], now: Date) async throws -> CodeRedemption {
        try await write { db in
            guard
                var grant = try db.cachedStatement(sql: "SELECT * FROM authorization_grants WHERE code_hash = ?")
                    .fetchOne(AuthorizationGrantRecord.self, arguments: [Data(codeHash)])
            else { return .unknown }
            if grant.redeemedAt != nil { return .alreadyRedeemed(grant) }
            try db.cachedStatement(
                sql: "UPDATE authorization_grants SET redeemed_at = ? WHERE code_hash = ?").execute(
                arguments: [now.unixSeconds, Data(codeHash)])
            grant.redeemedAt = now
            return .redeemed(grant)
        }
    }

    package func authorizationGrant(sessionID: String) async throws -> AuthorizationGrantRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM authorization_grants WHERE session_id = ?").fetchOne(AuthorizationGrantRecord.self, arguments: [sessionID])
        }
    }

    package func insertConsent(_ consent: ConsentRecord, auditing entry: AuditEntryDraft) async throws {
        let columns = try ConsentColumns(consent)
        try await write { db in
            do {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO consents
                            (id, client_id, user_id, operation, transaction_json, beneficiary_json, summary,
                             redirect_url, resource_id, status, created_at, expires_at, updated_at, challenge_id,
                             sealed_token, version)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """).execute(
                    arguments: [
                        consent.id, consent.clientID, consent.userID, consent.operation.rawValue, columns.transaction,
                        columns.beneficiary, consent.summary, consent.redirectURL, consent.resourceID,
                        consent.status.rawValue, consent.createdAt.unixSeconds, consent.expiresAt.unixSeconds,
                        consent.updatedAt.unixSeconds, consent.challengeID, consent.sealedToken.map { Data($0) },
                        consent.version,
                    ])
            } catch let error as DatabaseError where error.isUniquenessViolation {
                throw StoreError.conflict("id")
            }
            _ = try Self.appendAuditEntry(entry, db)
        }
    }

    package func consent(id: String) async throws -> ConsentRecord? {
        try await read { db in
            try db.cachedStatement(sql: "SELECT * FROM consents WHERE id = ?").fetchOne(ConsentRecord.self, arguments: [id])
        }
    }

    package func updateConsent(_ consent: ConsentRecord, expectedVersion: Int) async throws -> Bool {
        try await updateConsent(consent, expectedVersion: expectedVersion, enqueueing: nil, auditing: nil)
    }

    /// One read transaction: the rows as of one moment.
    package func consentContext(id: String) async throws -> ConsentContext? {
        try await read { db in
            guard let consent = try db.cachedStatement(sql: "SELECT * FROM consents WHERE id = ?").fetchOne(ConsentRecord.self, arguments: [id])
            else { return nil }
            let clientName = try String.fetchOne(
                db.cachedStatement(sql: "SELECT name FROM partner_clients WHERE id = ?"), arguments: [consent.clientID])
            let user = try db.cachedStatement(sql: "SELECT * FROM users WHERE id = ?").fetchOne(UserRecord.self, arguments: [consent.userID])
            let challenge = try consent.challengeID.flatMap { challengeID in
                try db.cachedStatement(sql: "SELECT * FROM challenges WHERE id = ?").fetchOne(ChallengeRecord.self, arguments: [challengeID])
            }
            let devices = try db.cachedStatement(sql: "SELECT * FROM devices WHERE user_id = ? ORDER BY created_at, id")
                .fetchAll(DeviceRecord.self, arguments: [consent.userID])
            return ConsentContext(consent: consent, clientName: clientName, user: user, challenge: challenge, devices: devices)
        }
    }

    /// The compare-and-set of `consent`, inside the caller's transaction.
    static func storeConsent(_ consent: ConsentRecord, expectedVersion: Int, in db: Database) throws -> Bool {
        let columns = try ConsentColumns(consent)
        try db.cachedStatement(
            sql: """
                UPDATE consents SET
                    client_id = ?, user_id = ?, operation = ?, transaction_json = ?, beneficiary_json = ?,
                    summary = ?, redirect_url = ?, resource_id = ?, status = ?, created_at = ?, expires_at = ?,
                    updated_at = ?, challenge_id = ?, sealed_token = ?, version = ?
                WHERE id = ? AND version = ?
                """).execute(
            arguments: [
                consent.clientID, consent.userID, consent.operation.rawValue, columns.transaction,
                columns.beneficiary, consent.summary, consent.redirectURL, consent.resourceID,
                consent.status.rawValue, consent.createdAt.unixSeconds, consent.expiresAt.unixSeconds,
                consent.updatedAt.unixSeconds, consent.challengeID, consent.sealedToken.map { Data($0) },
                expectedVersion + 1, consent.id, expectedVersion,
            ])
        return db.changesCount == 1
    }
}

/// The JSON columns of a consent.
private struct ConsentColumns {
    var transaction: String?
    var beneficiary: String?

    init(_ consent: ConsentRecord) throws {
        transaction = try consent.transaction.map { try JSONColumn.text($0) }
        beneficiary = try consent.beneficiary.map { try JSONColumn.text($0) }
    }
}
