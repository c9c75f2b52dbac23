import Crypto
import Foundation
import JWTKit
import SCACore

/// A DPoP proof (RFC 9449 §4): a JWT the client signs, for one request, with the key its
/// tokens are bound to. It carries the public key (`jwk`), the request's method (`htm`) and
/// URL (`htu`), a time (`iat`), an id used once (`jti`) and, with an access token, the
/// token's hash (`ath`), so a proof made for one request says nothing about another.
package struct DPoPProof: Sendable {
    /// The header a proof travels in.
    package static let headerName = "DPoP"
    static let type = "dpop+jwt"
    /// Asymmetric signatures only; ES256, PS256 and EdDSA as FAPI 2.0 allows.
    static let algorithms = Set(PublicJWK.fapiAlgorithms)
    /// How far `iat` may be from now: a proof is made just before its request.
    package static let window: TimeInterval = 60
    static let maximumLength = 8_192

    /// The JWK thumbprint (RFC 7638) of the key that signed it.
    package let thumbprint: String
    package let jti: String
    /// The proof's `iat`: a proof is not accepted once ``window`` has passed since.
    package let issuedAt: Date
    package let nonce: String?

    /// What the request was: the proof must say the same.
    package struct Request: Sendable {
        package var method: String
        /// The URL without query and fragment (RFC 9449 §4.3).
        package var url: String
        /// The access token presented with the proof, for `ath`; nil at the token endpoint.
        package var accessToken: String?

        package init(method: String, url: String, accessToken: String? = nil) {
            self.method = method
            self.url = url
            self.accessToken = accessToken
        }
    }

    /// Checks `proof` for `request` at `now`. The caller burns ``jti`` and checks the nonce.
    /// - Throws: ``BrokenRule`` naming the first rule broken.
    package static func verify(_ proof: String, for request: Request, now: Date) async throws(BrokenRule) -> DPoPProof {
        guard proof.utf8.count <= maximumLength, let header = CompactJWS.decode(Header.self, segment: 0, of: proof) else {
            throw BrokenRule("the DPoP proof is not a signed JWT")
        }
        guard header.typ == type else { throw BrokenRule("the DPoP proof's typ must be \(type)") }
        guard algorithms.contains(header.alg) else { throw BrokenRule("the DPoP proof must be signed with ES256, PS256 or EdDSA") }
        guard let key = header.jwk, let verifier = PublicJWK.verifier(key, for: header.alg),
            let thumbprint = PublicJWK.thumbprint(of: key)
        else { throw BrokenRule("the DPoP proof's jwk must be a public EC P-256, RSA or Ed25519 key for its alg") }
        let claims: Claims
        do {
            claims = try await PublicJWK.verify(proof, with: verifier, as: Claims.self)
        } catch {
            throw BrokenRule("the DPoP proof's signature does not verify with its jwk")
        }
        guard claims.htm == request.method else { throw BrokenRule("the DPoP proof's htm is not this request's method") }
        guard let htu = claims.htu, Self.sameResource(htu, request.url) else {
            throw BrokenRule("the DPoP proof's htu is not this request's URL")
        }
        guard let iat = claims.iat, abs(Date(timeIntervalSince1970: iat).timeIntervalSince(now)) <= window else {
            throw BrokenRule("the DPoP proof's iat must be within \(Int(window)) seconds of now")
        }
        guard let jti = claims.jti, !jti.isEmpty, jti.utf8.count <= 256 else {
            throw BrokenRule("the DPoP proof must have a jti of 1 to 256 characters")
        }
        if let token = request.accessToken {
            let expected = Base64URL.encode(SHA256.hash(data: Array(token.utf8)))
            guard claims.ath == expected else { throw BrokenRule("the DPoP proof's ath is not the hash of this access token") }
        }
        return DPoPProof(thumbprint: thumbprint, jti: jti, issuedAt: Date(timeIntervalSince1970: iat), nonce: claims.nonce)
    }

    /// What the store burns so that the proof is used once, on every instance: per key, since a
    /// `jti` is unique only for its signer.
    package var burn: [UInt8] {
        Array(SHA256.hash(data: Array("dpop\u{0}\(thumbprint)\u{0}\(jti)".utf8)))
    }

    /// When the burn may be forgotten: no proof of that `iat` is accepted after.
    package var burnExpiresAt: Date { issuedAt.addingTimeInterval(Self.window) }

    /// Whether two URLs name the same resource: scheme and host in any case, the rest exactly,
    /// query and fragment ignored (RFC 9449 §4.3).
    static func sameResource(_ claimed: String, _ actual: String) -> Bool {
        func normalized(_ url: String) -> String? {
            guard var components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else {
                return nil
            }
            components.scheme = scheme.lowercased()
            components.host = host.lowercased()
            components.query = nil
            components.fragment = nil
            if components.path.isEmpty { components.path = "/" }
            return components.string
        }
        guard let claimed = normalized(claimed), let actual = normalized(actual) else { return false }
        return claimed == actual
    }

    private struct Header: Decodable {
        var typ: String?
        var alg: String
        var jwk: JWK?
    }

    /// The claims, times as plain numbers: checked here against the injected clock.
    struct Claims: JWTPayload {
        var htm: String?
        var htu: String?
        var iat: Double?
        var jti: String?
        var ath: String?
        var nonce: String?

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
