import Foundation
import JWTKit
import SCACore
import SCAEngine
import Testing

/// The JWK thumbprint a DPoP binding is made of, on RFC 7638's own example, and the keys the
/// server refuses to verify with.
@Suite("Public JWKs and their thumbprints")
struct PublicJWKTests {
    @Test("RFC 7638 §3.1: the RSA key's thumbprint is NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    func rfc7638Example() throws {
        let json = #"""
            {"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB","alg":"RS256","kid":"2011-04-29"}
            """#
        let key = try JSONDecoder().decode(JWK.self, from: Data(json.utf8))
        #expect(PublicJWK.thumbprint(of: key) == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        // Members outside the required ones (alg, kid) do not count.
        #expect(PublicJWK.verifier(key, for: "RS256") != nil)
        #expect(PublicJWK.verifier(key, for: "PS256") == nil, "the key names RS256 for itself")
        #expect(PublicJWK.verifier(key, for: "ES256") == nil)
    }

    @Test("private, symmetric-looking, short and off-curve keys are no public key of ours")
    func refusedKeys() throws {
        func key(_ json: String) throws -> JWK { try JSONDecoder().decode(JWK.self, from: Data(json.utf8)) }
        let p256 = #"{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0""#
        #expect(PublicJWK.kind(of: try key(p256 + "}")) == .p256)
        #expect(PublicJWK.kind(of: try key(p256 + #","d":"jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}"#)) == nil)
        #expect(PublicJWK.kind(of: try key(#"{"kty":"EC","crv":"P-384","x":"AA","y":"AA"}"#)) == nil)
        #expect(PublicJWK.kind(of: try key(#"{"kty":"RSA","n":"AQAB","e":"AQAB"}"#)) == nil, "a modulus under 2048 bits")
        #expect(PublicJWK.kind(of: try key(#"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#)) == .ed25519)
    }
}
