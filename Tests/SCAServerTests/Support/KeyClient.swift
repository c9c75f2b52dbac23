import Crypto
import Foundation
import HTTPTypes
import JWTKit
import SCACore
import Testing

/// A partner client that authenticates with `private_key_jwt`: its key pair, registered as a
/// JWK Set, and assertions signed with an off-the-shelf JOSE library (jwt-kit), as a partner's
/// OAuth library would.
struct KeyClient {
    /// What a partner's key signs with.
    enum Signer {
        case es256(ES256PrivateKey)
        case eddsa(EdDSA.PrivateKey)
        case rsa(JWTKit.Insecure.RSA.PrivateKey, pss: Bool)

        var algorithm: String {
            switch self {
            case .es256: "ES256"
            case .eddsa: "EdDSA"
            case .rsa(_, let pss): pss ? "PS256" : "RS256"
            }
        }

        /// The public half as a JWK (no `alg`: the header names it).
        func jwk(kid: String) throws -> JSONValue {
            switch self {
            case .es256(let key):
                let point = try #require(key.publicKey.parameters)
                return .object([
                    "kty": .string("EC"), "crv": .string("P-256"), "kid": .string(kid), "use": .string("sig"),
                    "x": .string(point.x), "y": .string(point.y),
                ])
            case .eddsa(let key):
                return .object([
                    "kty": .string("OKP"), "crv": .string("Ed25519"), "kid": .string(kid),
                    "x": .string(Base64URL.encode(key.publicKey.rawRepresentation)),
                ])
            case .rsa(let key, _):
                let primitives = try key.publicKey.getKeyPrimitives()
                return .object([
                    "kty": .string("RSA"), "kid": .string(kid), "n": .string(Base64URL.encode(primitives.modulus)),
                    "e": .string(Base64URL.encode(primitives.publicExponent)),
                ])
            }
        }

        func add(to keys: JWTKeyCollection, kid: String) async {
            switch self {
            case .es256(let key): await keys.add(ecdsa: key, kid: JWKIdentifier(string: kid))
            case .eddsa(let key): await keys.add(eddsa: key, kid: JWKIdentifier(string: kid))
            case .rsa(let key, let pss):
                if pss {
                    await keys.add(pss: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
                } else {
                    await keys.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
                }
            }
        }
    }

    /// A 2048-bit RSA test key, made once with `openssl genrsa 2048` (generating one per test
    /// would cost seconds).
    static let rsaKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        \(rsaKeyBody)
        -----END PRIVATE KEY-----
        """

    static let redirectURI = "https://bank-partner.example/callback"

    let api: APIClient
    let clientID: String
    let signer: Signer
    let kid: String
    /// Where the browser comes back to: ``redirectURI`` unless the test serves one.
    var callback = KeyClient.redirectURI

    /// Registers a client with `signer`'s public key.
    static func make(
        _ api: APIClient, profile: ClientProfile = .fapi2, signer: Signer? = nil, kid: String = "partner-key-1",
        scopes: [String]? = nil, authorizationDetailsTypes: [String]? = nil, callback: String = redirectURI,
        requireSignedRequestObject: Bool? = nil
    ) async throws -> KeyClient {
        let signer = try signer ?? .es256(ES256PrivateKey())
        let response = try await api.post(
            "/admin/v1/clients",
            CreatePartnerClientRequest(
                name: "Open Banking Partner", redirectUris: [callback], consentRedirectUris: ["https://bank-partner.example/done"],
                scopes: scopes, profile: profile, jwks: .object(["keys": .array([try signer.jwk(kid: kid)])]),
                authorizationDetailsTypes: authorizationDetailsTypes, requireSignedRequestObject: requireSignedRequestObject),
            admin: true)
        #expect(response.status == 201)
        let client = try response.decode(PartnerClientResponse.self)
        #expect(client.clientSecret == nil)
        #expect(client.tokenEndpointAuthMethod == "private_key_jwt")
        return KeyClient(api: api, clientID: client.clientId, signer: signer, kid: kid, callback: callback)
    }

    /// The claims of an assertion; each test bends the one it attacks.
    struct Claims: JWTPayload {
        var iss: String
        var sub: String
        var aud: String
        var exp: Int
        var iat: Int?
        var jti: String

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    func claims(audience: String? = nil, lifetime: TimeInterval = 60, jti: String = UUID().uuidString) -> Claims {
        let now = api.clock.now().timeIntervalSince1970
        return Claims(iss: clientID, sub: clientID, aud: audience ?? api.services.configuration.baseURL, exp: Int(now + lifetime), iat: Int(now), jti: jti)
    }

    /// A signed assertion; `signer` defaults to the registered key.
    func assertion(_ claims: Claims? = nil, signer: Signer? = nil, kid: String? = nil) async throws -> String {
        let keys = JWTKeyCollection()
        let kid = kid ?? self.kid
        await (signer ?? self.signer).add(to: keys, kid: kid)
        return try await keys.sign(claims ?? self.claims(), kid: JWKIdentifier(string: kid))
    }

    /// The form fields that authenticate the client with `assertion`.
    static func credentials(_ assertion: String) -> [String: String] {
        ["client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer", "client_assertion": assertion]
    }

    /// `POST path` with `fields` and a fresh assertion (or the one given).
    func post(_ path: String, _ fields: [String: String], assertion: String? = nil, dpop: String? = nil) async throws -> APIResponse {
        let signed: String
        if let assertion { signed = assertion } else { signed = try await self.assertion() }
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let dpop { headers[HTTPField.Name("DPoP")!] = dpop }
        return try await api.form(path, fields.merging(Self.credentials(signed)) { $1 }, headers: headers)
    }

    /// `POST /oauth2/par` for a sign-in with PKCE `challenge`.
    func push(challenge: String, scope: String = "openid", extra: [String: String] = [:], assertion: String? = nil) async throws -> APIResponse {
        var fields = [
            "response_type": "code", "client_id": clientID, "redirect_uri": callback, "scope": scope,
            "code_challenge": challenge, "code_challenge_method": "S256", "state": "st-fapi", "nonce": "n-fapi",
        ]
        fields.merge(extra) { $1 }
        return try await post("/oauth2/par", fields, assertion: assertion)
    }

    /// `POST /oauth2/token` with `fields` and a DPoP proof of `key`: first without a nonce,
    /// which the server refuses with `use_dpop_nonce` and a `DPoP-Nonce`, then with it.
    func token(_ fields: [String: String], dpop key: DPoPKey) async throws -> APIResponse {
        let url = api.services.configuration.baseURL + "/oauth2/token"
        let first = try await post("/oauth2/token", fields, dpop: try key.proof(key.claims("POST", url, now: api.clock.now())))
        #expect(first.status == 400 && first.json["error"] as? String == "use_dpop_nonce", "first: \(first.text)")
        let nonce = try #require(first.headers[HTTPField.Name("DPoP-Nonce")!])
        return try await post("/oauth2/token", fields, dpop: try key.proof(key.claims("POST", url, now: api.clock.now(), nonce: nonce)))
    }

    /// Any claims, for a signed request object.
    struct AnyClaims: JWTPayload {
        var values: [String: JSONValue]

        init(_ values: [String: JSONValue]) { self.values = values }
        init(from decoder: any Decoder) throws { values = try [String: JSONValue](from: decoder) }
        func encode(to encoder: any Encoder) throws { try values.encode(to: encoder) }
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The claims of a signed request object for a sign-in with PKCE `challenge`, valid for a
    /// minute from now; each test bends the one it attacks.
    func requestClaims(challenge: String) -> [String: JSONValue] {
        let now = api.clock.now().timeIntervalSince1970.rounded(.down)
        return [
            "iss": .string(clientID), "aud": .string(api.services.configuration.baseURL), "client_id": .string(clientID),
            "response_type": "code", "redirect_uri": .string(callback), "scope": "openid", "code_challenge": .string(challenge),
            "code_challenge_method": "S256", "state": "st-signed", "nbf": .number(now), "exp": .number(now + 60),
        ]
    }

    /// `claims` signed as a request object (`typ` `oauth-authz-req+jwt`) with the registered key,
    /// or with `signer`.
    func requestObject(_ claims: [String: JSONValue], typ: String = "oauth-authz-req+jwt", signer: Signer? = nil) async throws -> String {
        let keys = JWTKeyCollection()
        await (signer ?? self.signer).add(to: keys, kid: kid)
        var header = JWTHeader()
        header.typ = typ
        return try await keys.sign(AnyClaims(claims), kid: JWKIdentifier(string: kid), header: header)
    }

    /// The authorization endpoint for a pushed `requestURI`.
    func authorizePath(requestURI: String, clientID: String? = nil) -> String {
        "/oauth2/authorize?client_id=\(clientID ?? self.clientID)&request_uri=\(RedirectURIRules.formEncoded(requestURI))"
    }
}


/// The body of ``KeyClient/rsaKeyPEM``.
private let rsaKeyBody = """
    MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCyOq0oUN0yLf9g
    X6NPzVmjWIQA15jNPnTXTcAj3R/+GYPii+68K7vZkxCacIGsZ5WIxjBVrNiSxuPf
    myIQyzhl6IjofjrPP+KSuTZC1j0SdLGP/FGF4BxrlXyfrR7C4jjx5y4f8IK0YBb0
    4OYmoGN+fiJlfK7SsbjJR5VYkEiuINhEUZ4gQm3GP5xl/EkN8n8c/pjpzWMi6FwR
    zAaBGY/pZsRIdFd9czHjCucVdvgXISzU6UuOOLNUGq6f3ynAKaSpNfyT44wv1ugM
    90ilklyytR4b3E4xh2xHCOV+XdKrnVyCD7Y/Hzl0k6gsbtc3ZLNjRsnOYLOG6Kwv
    7SL/n/g1AgMBAAECggEAEaarAHultHMGwCool94r+vfottajTOxbEPmjxkl/giBP
    xe962MryAzXD5q+uv/7QOef64HlKR5sH9Vy9TnF55+nUKUZbF6xpiYNrQspJ6RqC
    fVKNVldgKS14Vq4EBmP2JMry7/nXT/rWOzFMydWHlP7z9B4ZiEdOmCyNN2SutgPj
    YHpxQVlGFjDXZEDinIPIqSh0ksIKDVkNx2eh/urye3t5fD9g8Y/uZ04JlRRWrD0V
    L/cdHWyliFAT+hfmuFoIa9R7siVXgl07AWmfcuQ2fRbvkcj8dFJHuDxOo0t5SNDM
    R8bcwYxe4B9HTLWVSL6wtV7NJT1anGsnyKgCQwakgQKBgQDduIDKBRSMoOdPXfgP
    KM286XJnPoxpzld/IRI0R6cJeTXe+h5ZZVYTGdzNZVEkh+DDtG7S1PaRcCiWfhlo
    kfTGCUxrpsLBU+7AhHNOVZT5WAKw4xnRL9kClDNYLcVoxkdpjAJCITOKq52IXh6C
    V00mSMmENXrshmIiwk+1evZo9QKBgQDNyNIAqhjb+veQxQhaa0+B0Gy1wK+tF8f6
    hg7Io1AJbcRaFfVkExHwkedxqNCK0zNWpXI0i9SLM+4jfAp4a1UBGkQa1MBUizff
    VByGtOV9pnz+7rRl4ZsBc7m7ATGVpUc7uqqmQGNfkMUUtBHQ2WNIPCIZt1PJp1YI
    2pUWyIbKQQKBgHXjiibgOKLlUtfyYNi+m1Xc0kVvDn2bhw5DaUh+6KOy3R/n4Ycq
    yG9ziuFzA4fm721fXKWhMlD2T75k4eGl6X36p7V9f4QHuqSGSEDYZFOHpjajKbD+
    PeaPIhW6kII7GvFVzkWXHa6XvTUqxhILlSvL+8neHbPxZ/CPXI5kCOyZAoGAIZHI
    CEm3QnN/XUN3KGDnGHMquL+VKPR/L/Qch0h07wTUCioY3NlrjMYQbm8ujecEMfdN
    WRsSch7nkyxR/PDtbf+d6o6YTXJki+8JtEPgSA4Xx/KixRf3lFYPj10TfKj4pNq/
    qd1JGLbiH418dohv9MGygmVwqq28kDcwKQZPTsECgYEAumE3Qe5T4bJWNy7Hz3Ss
    ovJt6WV/q81Kq9FjjayIJxy5sKgGP+WcOJlPkBo/Tk6lPtGSsHxs84dRcB2zQS+X
    pK72eVgMH7QluWHYQzSzlr1lcScyxKEaKhr6ifspPYhm5Et69KWjt+vvOa0iH29B
    JTUgkfq5jBw2RMuUHV68/sk=
    """
