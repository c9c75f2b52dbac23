import Foundation
import SCACore

extension PartnerClientRecord: ColumnDecodable {
    /// A `partner_clients` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            id: try columns.value("id"),
            name: try columns.value("name"),
            secretHash: try columns.optionalBytes("secret_hash"),
            redirectURIs: try columns.json("redirect_uris"),
            consentRedirectURIs: try columns.json("consent_redirect_uris"),
            scopes: try columns.json("scopes"),
            createdAt: try columns.date("created_at"),
            profile: try columns.rawValue("profile"),
            jwks: try columns.value("jwks"),
            authorizationDetailsTypes: try columns.json("authorization_details_types"),
            requireSignedRequestObject: try columns.bool("require_signed_request_object"),
            postLogoutRedirectURIs: try columns.json("post_logout_redirect_uris"),
            jwksURI: try columns.value("jwks_uri"),
            backchannelLogoutURI: try columns.value("backchannel_logout_uri"),
            cibaNotificationEndpoint: try columns.value("ciba_notification_endpoint")
        )
    }
}

extension AuthorizationGrantRecord: ColumnDecodable {
    /// An `authorization_grants` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            codeHash: try columns.bytes("code_hash"),
            clientID: try columns.value("client_id"),
            redirectURI: try columns.value("redirect_uri"),
            userID: try columns.value("user_id"),
            sessionID: try columns.value("session_id"),
            scopes: try columns.json("scopes"),
            nonce: try columns.value("nonce"),
            codeChallenge: try columns.value("code_challenge"),
            authTime: try columns.date("auth_time"),
            sealedTokens: try columns.bytes("sealed_tokens"),
            expiresAt: try columns.date("expires_at"),
            redeemedAt: try columns.optionalDate("redeemed_at")
        )
    }
}

extension ConsentRecord: ColumnDecodable {
    /// A `consents` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            id: try columns.value("id"),
            clientID: try columns.value("client_id"),
            userID: try columns.value("user_id"),
            operation: try columns.rawValue("operation"),
            transaction: try columns.optionalJSON("transaction_json"),
            beneficiary: try columns.optionalJSON("beneficiary_json"),
            summary: try columns.value("summary"),
            redirectURL: try columns.value("redirect_url"),
            resourceID: try columns.value("resource_id"),
            status: try columns.rawValue("status"),
            createdAt: try columns.date("created_at"),
            expiresAt: try columns.date("expires_at"),
            updatedAt: try columns.date("updated_at"),
            challengeID: try columns.value("challenge_id"),
            sealedToken: try columns.optionalBytes("sealed_token"),
            version: try columns.value("version")
        )
    }
}
