import Crypto
import Foundation
import JWTKit
import SCACore
import SCAStorage

/// Signs and verifies access tokens with the ES256 keys kept (sealed) in the store, and
/// publishes their public halves as a JWKS.
package struct TokenSigner: Sendable {
    /// The context signing keys are sealed under in the store; audit checkpoints open them too.
    static let sealingContext = "signing-key"

    /// Every key, for verification.
    private let keys: JWTKeyCollection
    /// The key new tokens are signed with (the newest).
    let currentKeyID: String
    let jwks: JSONWebKeySet
    /// The current key and its header, for ``sign(_:)``.
    private let current: CurrentKey

    /// Loads the keys, generating the first one when the store has none. Instances sharing a
    /// database end up with the same key.
    static func load(store: any SCAStore, box: SecretBox, now: Date) async throws -> TokenSigner {
        let fresh = P256.Signing.PrivateKey()
        let candidate = SigningKeyRecord(
            keyID: keyID(of: fresh.publicKey), algorithm: "ES256",
            sealedPrivateKey: try box.seal(Array(fresh.rawRepresentation), context: sealingContext),
            createdAt: now)
        let current = try await store.addSigningKeyIfNone(candidate)
        let keys = JWTKeyCollection()
        var published: [JSONWebKeySet.Key] = []
        var signing: CurrentKey?
        for record in try await store.signingKeys() where record.algorithm == "ES256" {
            let raw: [UInt8]
            do {
                raw = try box.open(record.sealedPrivateKey, context: sealingContext)
            } catch SecretBoxError.cannotOpen {
                // Most likely another instance on this database sealed it with its own key.
                throw ConfigurationError(
                    "the token-signing key \(record.keyID) in the database cannot be opened with this server key: "
                        + "every instance on one database must use the same serverKey (SCA_SERVER_KEY)")
            }
            let privateKey = try P256.Signing.PrivateKey(rawRepresentation: raw)
            await keys.add(ecdsa: try ES256PrivateKey(backing: privateKey), kid: JWKIdentifier(string: record.keyID))
            published.append(.init(publicKey: privateKey.publicKey, keyID: record.keyID))
            if record.keyID == current.keyID { signing = CurrentKey(privateKey: privateKey, keyID: record.keyID) }
        }
        guard let signing else { throw ConfigurationError("the current token-signing key \(current.keyID) is not an ES256 key") }
        return TokenSigner(keys: keys, currentKeyID: current.keyID, jwks: JSONWebKeySet(keys: published), current: signing)
    }

    /// Signs with the current key, in the one accepted form (low `s`, see ``ES256SignatureForm``).
    ///
    /// Built here rather than by `JWTKeyCollection.sign`: its generic header is
    /// encoded anew for every token, which cost a cold start more than its ECDSA signature. The
    /// header never changes, so it is encoded once per key; the claims are encoded as the
    /// library encodes them (seconds since 1970), and the library still verifies.
    package func sign(_ claims: some JWTPayload) throws -> String {
        try sign(claims, header: current.headerSegment)
    }

    /// As ``sign(_:)``, with `type` as the header's `typ`: a JWT made for one purpose (a signed
    /// introspection answer) that no verifier of another takes for its own.
    package func sign(_ claims: some JWTPayload, type: String) throws -> String {
        // The key id and the type are base64url and a media type: nothing in them needs escaping in JSON.
        try sign(claims, header: Array(Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(current.keyID)","typ":"\#(type)"}"#.utf8)).utf8))
    }

    private func sign(_ claims: some JWTPayload, header: [UInt8]) throws -> String {
        var token = header
        token.append(UInt8(ascii: "."))
        token.append(contentsOf: Base64URL.encode(try Self.claimsEncoder.encode(claims)).utf8)
        let signature = try current.privateKey.signature(for: token)
        token.append(UInt8(ascii: "."))
        token.append(contentsOf: Base64URL.encode(ES256SignatureForm.lowS(Array(signature.rawRepresentation))).utf8)
        return String(decoding: token, as: UTF8.self)
    }

    /// Claims as the JWT library encodes them: dates as seconds since 1970. Shared, and never
    /// changed after it is made.
    private static let claimsEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    /// The signing key and the base64url of its fixed JOSE header.
    private struct CurrentKey: Sendable {
        let privateKey: P256.Signing.PrivateKey
        let headerSegment: [UInt8]
        let keyID: String

        init(privateKey: P256.Signing.PrivateKey, keyID: String) {
            self.privateKey = privateKey
            self.keyID = keyID
            // A key id is base64url: nothing in it needs escaping in JSON.
            self.headerSegment = Array(Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(keyID)","typ":"JWT"}"#.utf8)).utf8)
        }
    }

    /// - Throws: when the token is malformed, its signature is not in the one accepted form,
    ///   or does not verify with our keys.
    package func verify(_ token: String) async throws -> AccessTokenClaims {
        guard ES256SignatureForm.isCanonical(token: token) else { throw NonCanonicalSignature() }
        return try await keys.verify(token, as: AccessTokenClaims.self)
    }

    /// Another JWT this server signed (an id_token), by signature only: its claims are the
    /// caller's to check.
    package func verify<Claims: JWTPayload>(_ token: String, as type: Claims.Type) async throws -> Claims {
        guard ES256SignatureForm.isCanonical(token: token) else { throw NonCanonicalSignature() }
        return try await keys.verify(token, as: Claims.self)
    }

    /// As ``verify(_:)``, with the profile claims the token carries.
    func verifyProfiled(_ token: String) async throws -> ProfiledAccessClaims {
        guard ES256SignatureForm.isCanonical(token: token) else { throw NonCanonicalSignature() }
        return try await keys.verify(token, as: ProfiledAccessClaims.self)
    }

    /// A signature with a high `s` or a non-canonical encoding: the twin of a token, refused.
    struct NonCanonicalSignature: Error {}

    /// A stable key id: the first 16 bytes of SHA-256 over the public point, base64url.
    static func keyID(of publicKey: P256.Signing.PublicKey) -> String {
        Base64URL.encode(SHA256.hash(data: publicKey.x963Representation).prefix(16))
    }
}

/// `GET /.well-known/jwks.json` (RFC 7517).
package struct JSONWebKeySet: Codable, Sendable, Equatable {
    struct Key: Codable, Sendable, Equatable {
        var kty = "EC"
        var crv = "P-256"
        var x: String
        var y: String
        var kid: String
        var alg = "ES256"
        var use = "sig"

        init(publicKey: P256.Signing.PublicKey, keyID: String) {
            let point = Array(publicKey.x963Representation)  // 0x04 || X(32) || Y(32)
            self.x = Base64URL.encode(point[1..<33])
            self.y = Base64URL.encode(point[33..<65])
            self.kid = keyID
        }
    }

    var keys: [Key]
}
