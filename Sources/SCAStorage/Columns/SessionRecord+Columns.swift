import Foundation
import SCACore

extension SessionRecord: ColumnDecodable {
    /// A `sessions` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            id: try columns.value("id"),
            userID: try columns.value("user_id"),
            operation: try columns.rawValue("operation"),
            challengeID: try columns.value("challenge_id"),
            createdAt: try columns.date("created_at"),
            lastUsedAt: try columns.date("last_used_at"),
            revokedAt: try columns.optionalDate("revoked_at"),
            clientID: try columns.value("client_id"),
            keyThumbprint: try columns.value("key_thumbprint")
        )
    }
}

extension RefreshTokenRecord: ColumnDecodable {
    /// A `refresh_tokens` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            tokenHash: try columns.bytes("token_hash"),
            sessionID: try columns.value("session_id"),
            issuedAt: try columns.date("issued_at"),
            expiresAt: try columns.date("expires_at"),
            usedAt: try columns.optionalDate("used_at")
        )
    }
}

extension SigningKeyRecord: ColumnDecodable {
    /// A `signing_keys` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            keyID: try columns.value("key_id"),
            algorithm: try columns.value("algorithm"),
            sealedPrivateKey: try columns.bytes("sealed_private_key"),
            createdAt: try columns.date("created_at"),
            activatesAt: try columns.date("activates_at")
        )
    }
}
