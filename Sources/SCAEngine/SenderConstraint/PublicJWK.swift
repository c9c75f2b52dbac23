import Crypto
import Foundation
import JWTKit
import SCACore

/// What this server accepts of a public JSON Web Key (RFC 7517), for a partner's registered
/// keys and for the key a DPoP proof carries: EC P-256, RSA of 2048 bits or more, or Ed25519,
/// never a private or a symmetric key.
package enum PublicJWK {
    /// The kind of a usable public key: the algorithms it can verify.
    package enum Kind: Sendable {
        case p256, rsa, ed25519

        var algorithms: Set<String> {
            switch self {
            case .p256: ["ES256"]
            case .rsa: ["PS256", "RS256"]
            case .ed25519: ["EdDSA"]
            }
        }
    }

    /// The signature algorithms FAPI 2.0 allows, for DPoP proofs and a `fapi2` client's
    /// assertions, in the order discovery lists them.
    package static let fapiAlgorithms = ["ES256", "PS256", "EdDSA"]

    /// The smallest RSA modulus accepted, in bytes (2048 bits).
    static let minimumRSAModulusBytes = 256

    /// The key's kind; nil for a private key, a symmetric one, another curve or a short RSA key.
    package static func kind(of key: JWK) -> Kind? {
        guard key.privateExponent == nil, key.prime1 == nil, key.prime2 == nil else { return nil }
        switch key.keyType {
        case .ecdsa:
            guard key.curve == .ecdsa(.p256), key.x != nil, key.y != nil else { return nil }
            return .p256
        case .rsa:
            guard let modulus = key.modulus.flatMap(Base64URL.decode), key.exponent != nil,
                modulus.drop(while: { $0 == 0 }).count >= minimumRSAModulusBytes
            else { return nil }
            return .rsa
        case .octetKeyPair:
            guard key.curve == .eddsa(.ed25519), key.x != nil else { return nil }
            return .ed25519
        default:
            return nil
        }
    }

    /// `key` set to verify `algorithm` and nothing else, or nil when it cannot: its kind does not
    /// verify that algorithm, or the key names another `alg` of its own.
    package static func verifier(_ key: JWK, for algorithm: String) -> JWK? {
        guard let kind = kind(of: key), kind.algorithms.contains(algorithm),
            key.algorithm.map({ $0.rawValue == algorithm }) ?? true
        else { return nil }
        var key = key
        key.algorithm = JWK.Algorithm(rawValue: algorithm)
        return key
    }

    /// Verifies `token`'s signature with `key` alone, and decodes its claims.
    package static func verify<Claims: JWTPayload>(_ token: String, with key: JWK, as type: Claims.Type) async throws -> Claims {
        let collection = JWTKeyCollection()
        var key = key
        // The library files keys by `kid`; a key without one (a DPoP proof's) gets a name here.
        if key.keyIdentifier == nil { key.keyIdentifier = JWKIdentifier(string: "key") }
        try await collection.add(jwk: key, isDefault: true)
        return try await collection.verify(token, as: Claims.self)
    }

    /// The key's JWK thumbprint (RFC 7638): SHA-256 over its required members, in lexicographic
    /// order without whitespace, in base64url. Nil for a key of no accepted kind.
    package static func thumbprint(of key: JWK) -> String? {
        let members: [String: String?]
        switch kind(of: key) {
        case .p256: members = ["crv": "P-256", "kty": "EC", "x": key.x, "y": key.y]
        case .rsa: members = ["e": key.exponent, "kty": "RSA", "n": key.modulus]
        case .ed25519: members = ["crv": "Ed25519", "kty": "OKP", "x": key.x]
        case nil: return nil
        }
        var object: [String: JSONValue] = [:]
        for (name, value) in members {
            guard let value else { return nil }
            object[name] = .string(value)
        }
        return Base64URL.encode(SHA256.hash(data: JCS.canonicalize(.object(object))))
    }
}
