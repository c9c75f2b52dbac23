import Foundation
import JWTKit
import SCACore

/// A partner client's public keys, registered as a JWK Set, with which it signs the assertions
/// that authenticate it (`private_key_jwt`).
struct ClientKeys: Sendable {
    /// The algorithms an assertion may be signed with. A FAPI 2.0 client is held to ES256,
    /// PS256 and EdDSA; RS256 (PKCS #1 v1.5 padding) is accepted from a standard client only.
    static func algorithms(for profile: ClientProfile) -> Set<String> {
        profile == .fapi2 ? ["ES256", "PS256", "EdDSA"] : ["ES256", "PS256", "EdDSA", "RS256"]
    }

    /// At most this many keys: room for a rotation, not a key store.
    static let maximumCount = 10
    /// The smallest RSA modulus accepted, in bytes (2048 bits).
    static let minimumRSAModulusBytes = 256

    let set: JWKS

    /// Reads and checks a JWK Set given at registration.
    /// - Throws: ``ClientKeys/Refusal`` naming the rule the set breaks: not a JWK Set, empty or
    ///   too many keys, a private key (the client would have given its secret away), an RSA key
    ///   under 2048 bits, a key of no accepted kind, or keys without distinct `kid`s.
    init(json: String) throws(Refusal) {
        guard let set = try? JSONDecoder().decode(JWKS.self, from: Data(json.utf8)) else {
            throw Refusal("jwks must be a JWK Set ({\"keys\": [...]}) of EC P-256, RSA or Ed25519 public keys")
        }
        guard !set.keys.isEmpty, set.keys.count <= Self.maximumCount else {
            throw Refusal("jwks must hold 1 to \(Self.maximumCount) keys")
        }
        for (index, key) in set.keys.enumerated() {
            guard key.privateExponent == nil, key.prime1 == nil, key.prime2 == nil else {
                throw Refusal("jwks.keys[\(index)] is a private key: register the public key only, and keep the private one")
            }
            guard Self.kind(of: key) != nil else {
                throw Refusal("jwks.keys[\(index)] must be an EC P-256, RSA (2048 bits or more) or Ed25519 public key")
            }
        }
        let identifiers = set.keys.map { $0.keyIdentifier?.string }
        if set.keys.count > 1, identifiers.contains(nil) || Set(identifiers).count != identifiers.count {
            throw Refusal("jwks keys must each have a distinct kid when there are several")
        }
        self.set = set
    }

    /// The kind of a usable public key: the algorithms it can verify.
    enum Kind: Sendable {
        case p256, rsa, ed25519

        var algorithms: Set<String> {
            switch self {
            case .p256: ["ES256"]
            case .rsa: ["PS256", "RS256"]
            case .ed25519: ["EdDSA"]
            }
        }
    }

    static func kind(of key: JWK) -> Kind? {
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

    /// The key that verifies a signature made with `algorithm` under `keyID`: the key of that
    /// `kid`, or the only key when the header names none. The key's own `alg`, when it has one,
    /// must be `algorithm`: a key registered for ES256 never verifies anything else.
    func key(for keyID: String?, algorithm: String) -> JWK? {
        let candidates = keyID.map { id in set.keys.filter { $0.keyIdentifier?.string == id } } ?? (set.keys.count == 1 ? set.keys : [])
        guard candidates.count == 1, var key = candidates.first, let kind = Self.kind(of: key),
            kind.algorithms.contains(algorithm), key.algorithm.map({ $0.rawValue == algorithm }) ?? true
        else { return nil }
        key.algorithm = JWK.Algorithm(rawValue: algorithm)
        return key
    }

    struct Refusal: Error, Sendable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
