import Foundation
import JWTKit
import SCACore
import SCAEngine

/// A partner client's public keys, registered as a JWK Set, with which it signs the assertions
/// that authenticate it (`private_key_jwt`).
struct ClientKeys: Sendable {
    /// The algorithms an assertion may be signed with. A FAPI 2.0 client is held to ES256,
    /// PS256 and EdDSA; RS256 (PKCS #1 v1.5 padding) is accepted from a standard client only.
    static func algorithms(for profile: ClientProfile) -> Set<String> {
        Set(profile == .fapi2 ? PublicJWK.fapiAlgorithms : standardAlgorithms)
    }

    /// A standard client's: FAPI's and RS256, in the order discovery lists them.
    static let standardAlgorithms = PublicJWK.fapiAlgorithms + ["RS256"]

    /// At most this many keys: room for a rotation, not a key store.
    static let maximumCount = 10

    let set: JWKS

    /// Reads and checks a JWK Set given at registration.
    /// - Throws: ``BrokenRule`` naming the rule the set breaks: not a JWK Set, empty or
    ///   too many keys, a private key (the client would have given its secret away), an RSA key
    ///   under 2048 bits, a key of no accepted kind, or keys without distinct `kid`s.
    init(json: String) throws(BrokenRule) {
        guard let set = try? JSONDecoder().decode(JWKS.self, from: Data(json.utf8)) else {
            throw BrokenRule("jwks must be a JWK Set ({\"keys\": [...]}) of EC P-256, RSA or Ed25519 public keys")
        }
        guard !set.keys.isEmpty, set.keys.count <= Self.maximumCount else {
            throw BrokenRule("jwks must hold 1 to \(Self.maximumCount) keys")
        }
        for (index, key) in set.keys.enumerated() {
            guard key.privateExponent == nil, key.prime1 == nil, key.prime2 == nil else {
                throw BrokenRule("jwks.keys[\(index)] is a private key: register the public key only, and keep the private one")
            }
            guard PublicJWK.kind(of: key) != nil else {
                throw BrokenRule("jwks.keys[\(index)] must be an EC P-256, RSA (2048 bits or more) or Ed25519 public key")
            }
        }
        let identifiers = set.keys.map { $0.keyIdentifier?.string }
        if set.keys.count > 1, identifiers.contains(nil) || Set(identifiers).count != identifiers.count {
            throw BrokenRule("jwks keys must each have a distinct kid when there are several")
        }
        self.set = set
    }

    /// The claims of `token`, a JWT the client signed (an assertion, a request object) with
    /// `algorithm` under `keyID`, as its header says: an algorithm the client may use, and a
    /// registered key of that kind whose signature verifies.
    /// - Parameter name: what the token is, as a refusal names it.
    /// - Throws: ``BrokenRule`` naming the first rule broken.
    func verify<Claims: JWTPayload>(
        _ token: String, algorithm: String, keyID: String?, profile: ClientProfile, as type: Claims.Type, named name: String
    ) async throws(BrokenRule) -> Claims {
        guard Self.algorithms(for: profile).contains(algorithm) else {
            throw BrokenRule("\(name) is signed with \(algorithm), which this client may not use")
        }
        guard let key = key(for: keyID, algorithm: algorithm) else {
            throw BrokenRule("\(name) is signed with a key this client has not registered for \(algorithm)")
        }
        do {
            return try await PublicJWK.verify(token, with: key, as: Claims.self)
        } catch {
            throw BrokenRule("\(name)'s signature does not verify with the client's key")
        }
    }

    /// The `kid` in the header of `token`, read without checking anything: it says which of
    /// the client's keys to check it with.
    static func keyID(of token: String) -> String? {
        CompactJWS.decode(KeyIDHeader.self, segment: 0, of: token)?.kid
    }

    private struct KeyIDHeader: Decodable {
        var kid: String?
    }

    /// The key that verifies a signature made with `algorithm` under `keyID`: the key of that
    /// `kid`, or the only key when the header names none. The key's own `alg`, when it has one,
    /// must be `algorithm`: a key registered for ES256 never verifies anything else.
    func key(for keyID: String?, algorithm: String) -> JWK? {
        key(named: keyID).flatMap { PublicJWK.verifier($0, for: algorithm) }
    }

    /// The one key a header's `kid` names: the key of that `kid`, or the only key when it names
    /// none; nil when there is no such key, or no single one.
    func key(named keyID: String?) -> JWK? {
        let candidates = keyID.map { id in set.keys.filter { $0.keyIdentifier?.string == id } } ?? (set.keys.count == 1 ? set.keys : [])
        return candidates.count == 1 ? candidates.first : nil
    }
}
