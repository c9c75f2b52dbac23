import Crypto
import Foundation
import SCACore

/// A client's DPoP key (P-256) and the proofs it signs (RFC 9449 §4.2), written out by hand
/// so that each test can bend the one field it attacks.
struct DPoPKey {
    let key = P256.Signing.PrivateKey()

    /// The public key as the proof's header carries it.
    var jwk: [String: String] {
        let raw = key.publicKey.rawRepresentation
        return ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(raw.prefix(32)), "y": Base64URL.encode(raw.suffix(32))]
    }

    /// The RFC 7638 thumbprint, computed here independently of the server's code.
    var thumbprint: String {
        let members = #"{"crv":"P-256","kty":"EC","x":"\#(jwk["x"]!)","y":"\#(jwk["y"]!)"}"#
        return Base64URL.encode(SHA256.hash(data: Array(members.utf8)))
    }

    struct Claims: Encodable {
        var htm: String
        var htu: String
        var iat: Int
        var jti: String
        var nonce: String?
        var ath: String?
    }

    /// The claims of a proof for `method` on `url` at `now`, with `accessToken`'s `ath`.
    func claims(_ method: String, _ url: String, now: Date, nonce: String? = nil, accessToken: String? = nil) -> Claims {
        Claims(
            htm: method, htu: url, iat: Int(now.timeIntervalSince1970), jti: UUID().uuidString, nonce: nonce,
            ath: accessToken.map { Base64URL.encode(SHA256.hash(data: Array($0.utf8))) })
    }

    /// A signed proof; `typ` and the key in the header can be bent.
    func proof(_ claims: Claims, typ: String = "dpop+jwt", headerKey: DPoPKey? = nil) throws -> String {
        let header = try JSONSerialization.data(
            withJSONObject: ["typ": typ, "alg": "ES256", "jwk": (headerKey ?? self).jwk], options: [.sortedKeys])
        let input = Base64URL.encode(header) + "." + Base64URL.encode(try JSONEncoder().encode(claims))
        let signature = try key.signature(for: Array(input.utf8)).rawRepresentation
        return input + "." + Base64URL.encode(signature)
    }
}
