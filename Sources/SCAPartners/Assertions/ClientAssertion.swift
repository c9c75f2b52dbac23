import Crypto
import Foundation
import JWTKit
import SCACore
import SCAEngine

/// A `private_key_jwt` client assertion (RFC 7523 §2.2, OpenID Connect Core §9): a JWT the
/// client signs with its private key, in place of a shared secret, on every endpoint that
/// authenticates clients.
///
/// What is checked, before the client counts as authenticated:
/// - the header's `alg` is one the client may use (``ClientKeys/algorithms(for:)``) and the key
///   it names (`kid`) is a registered key of that kind; `none` and HMAC never are, so a public
///   key used as an HMAC secret proves nothing;
/// - `iss` and `sub` are the client's id;
/// - `aud` is this server's issuer (a standard client may name the token endpoint instead, as
///   RFC 7523 allows; a FAPI 2.0 client names the issuer and nothing else);
/// - `exp` is in the future and at most ``maximumLifetime`` ahead, so that the `jti` burn below
///   need not be kept long; `iat` and `nbf`, when present, are not in the future;
/// - `jti` is used once: the caller burns it in the store, on every instance alike.
struct ClientAssertion: Sendable {
    static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// The longest an assertion may still be valid when it arrives: five minutes.
    static let maximumLifetime: TimeInterval = 300
    /// Clock difference allowed for `iat` and `nbf`.
    static let leeway: TimeInterval = 30
    /// Longer than any honest assertion (a header, a handful of claims and a signature).
    static let maximumLength = 8_192

    let jti: String
    let expiresAt: Date

    /// The client an assertion names in `iss`, read without checking anything: it says whose
    /// keys to check it with.
    static func issuer(of assertion: String) -> String? {
        guard assertion.utf8.count <= maximumLength else { return nil }
        return CompactJWS.decode(Issuer.self, segment: 1, of: assertion)?.iss
    }

    /// Checks `assertion` for the client `clientID`, held to `profile`, whose registered keys
    /// are `keys`, at `now`.
    /// - Parameter audiences: the `aud` values accepted, the issuer first.
    /// - Throws: ``BrokenRule`` naming the first rule broken.
    static func verify(
        _ assertion: String, clientID: String, profile: ClientProfile, keys: ClientKeys, audiences: [String], now: Date
    ) async throws(BrokenRule) -> ClientAssertion {
        guard assertion.utf8.count <= maximumLength, let header = CompactJWS.decode(Header.self, segment: 0, of: assertion) else {
            throw BrokenRule("client_assertion is not a signed JWT")
        }
        guard header.crit == nil else { throw BrokenRule("client_assertion names critical header parameters this server does not know") }
        let claims = try await keys.verify(
            assertion, algorithm: header.alg, keyID: header.kid, profile: profile, as: Claims.self, named: "client_assertion")
        guard claims.iss == clientID, claims.sub == clientID else {
            throw BrokenRule("client_assertion's iss and sub must both be the client_id")
        }
        let audience = claims.aud.value
        let accepted = profile == .fapi2 ? audience == [audiences[0]] : audience.contains(where: audiences.contains)
        guard accepted else { throw BrokenRule("client_assertion's aud must be the issuer, \(audiences[0])") }
        guard let exp = claims.exp else { throw BrokenRule("client_assertion must have exp") }
        let expiresAt = Date(timeIntervalSince1970: exp)
        guard expiresAt > now else { throw BrokenRule("client_assertion has expired") }
        guard expiresAt <= now.addingTimeInterval(maximumLifetime) else {
            throw BrokenRule("client_assertion's exp must be at most \(Int(maximumLifetime)) seconds ahead")
        }
        for (name, time) in [("iat", claims.iat), ("nbf", claims.nbf)] {
            if let time, Date(timeIntervalSince1970: time) > now.addingTimeInterval(leeway) {
                throw BrokenRule("client_assertion's \(name) is in the future")
            }
        }
        guard let jti = claims.jti, !jti.isEmpty, jti.utf8.count <= 256 else {
            throw BrokenRule("client_assertion must have a jti of 1 to 256 characters")
        }
        return ClientAssertion(jti: jti, expiresAt: expiresAt)
    }

    /// What the store burns so that the `jti` is used once: per client, since a `jti` is unique
    /// only within its issuer.
    static func burn(clientID: String, jti: String) -> [UInt8] {
        Array(SHA256.hash(data: Array("client-assertion\u{0}\(clientID)\u{0}\(jti)".utf8)))
    }

    private struct Issuer: Decodable {
        var iss: String?
    }

    private struct Header: Decodable {
        var alg: String
        var kid: String?
        var crit: [String]?
    }

    /// The claims, with times as plain numbers: they are checked here, against the injected
    /// clock, not by the library.
    struct Claims: JWTPayload {
        var iss: String?
        var sub: String?
        var aud: AudienceClaim
        var exp: Double?
        var iat: Double?
        var nbf: Double?
        var jti: String?

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
