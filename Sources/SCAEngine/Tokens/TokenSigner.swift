import Crypto
import Foundation
import JWTKit
import SCACore
import SCAStorage

/// Signs and verifies access tokens with the ES256 keys kept (sealed) in the store, and
/// publishes their public halves as a JWKS.
///
/// Keys rotate (``SigningKeySchedule``): the signer holds every stored key as last read
/// (``reload()``), signs with the one whose activation is the newest passed, and publishes the
/// next, the current and the recently retired ones.
package struct TokenSigner: Sendable {
    /// The context signing keys are sealed under in the store.
    static let sealingContext = "signing-key"

    private let ring: SigningKeyRing
    private let store: any SCAStore
    private let box: SecretBox
    private let now: @Sendable () -> Date
    /// When keys sign and are published.
    package let schedule: SigningKeySchedule

    /// Loads the keys, generating the first one when the store has none. Instances sharing a
    /// database end up with the same key.
    static func load(
        store: any SCAStore, box: SecretBox, schedule: SigningKeySchedule, now: @escaping @Sendable () -> Date
    ) async throws -> TokenSigner {
        _ = try await store.addSigningKeyIfNone(try newKey(box: box, createdAt: now(), activatesAt: nil))
        let snapshot = try await read(store: store, box: box, schedule: schedule, at: now(), reusing: nil)
        return TokenSigner(ring: SigningKeyRing(snapshot), store: store, box: box, now: now, schedule: schedule)
    }

    /// Reads the keys from the store again: one rotated by another instance or by
    /// `sca-server keys rotate` is then published here and signs from its activation on.
    package func reload() async throws {
        ring.replace(with: try await Self.read(store: store, box: box, schedule: schedule, at: now(), reusing: ring.snapshot))
    }

    /// Stores a new key that activates after the schedule's pre-publication window, if
    /// `rotation` allows it after the newest key; then reads the keys again.
    func rotate(_ rotation: SigningKeyRotation) async throws -> SigningKeyRotationOutcome {
        let createdAt = now()
        let candidate = try Self.newKey(box: box, createdAt: createdAt, activatesAt: schedule.activation(ofKeyRotatedAt: createdAt))
        let outcome = try await store.rotateSigningKey(to: candidate, if: rotation)
        try await reload()
        return outcome
    }

    /// The stored keys as this instance knows them, newest activation first.
    package var keys: [(keyID: String, createdAt: Date, activatesAt: Date)] {
        ring.snapshot.keys.map { ($0.keyID, $0.createdAt, $0.activatesAt) }
    }

    /// `GET /.well-known/jwks.json`: the keys ``SigningKeySchedule/published(_:at:activation:)``
    /// lists now, newest activation first.
    package var jwks: JSONWebKeySet {
        let keys = schedule.published(ring.snapshot.keys, at: now(), activation: \.activatesAt)
        return JSONWebKeySet(keys: keys.map { .init(publicKey: $0.privateKey.publicKey, keyID: $0.keyID) })
    }

    /// Every key ever stored, published or not, by key id: audit checkpoints signed by a
    /// retired key still verify.
    var everyPublicKey: [String: P256.Signing.PublicKey] {
        Dictionary(ring.snapshot.keys.map { ($0.keyID, $0.privateKey.publicKey) }) { first, _ in first }
    }

    /// The key that signs now, for what is signed outside a JWT payload (audit checkpoints).
    func signingKey() -> (privateKey: P256.Signing.PrivateKey, keyID: String) {
        let key = current()
        return (key.privateKey, key.keyID)
    }

    private func current() -> SigningKeyRing.Key {
        // The ring always holds the key `load` ensured.
        schedule.signing(ring.snapshot.keys, at: now(), activation: \.activatesAt)!
    }

    private static func newKey(box: SecretBox, createdAt: Date, activatesAt: Date?) throws -> SigningKeyRecord {
        let fresh = P256.Signing.PrivateKey()
        return SigningKeyRecord(
            keyID: keyID(of: fresh.publicKey), algorithm: "ES256",
            sealedPrivateKey: try box.seal(Array(fresh.rawRepresentation), context: sealingContext),
            createdAt: createdAt, activatesAt: activatesAt)
    }

    /// Every stored ES256 key, opened (those `previous` holds are not opened again), with a
    /// verifier of those published at `now`.
    private static func read(
        store: any SCAStore, box: SecretBox, schedule: SigningKeySchedule, at now: Date, reusing previous: SigningKeyRing.Snapshot?
    ) async throws -> SigningKeyRing.Snapshot {
        let opened = Dictionary((previous?.keys ?? []).map { ($0.keyID, $0) }) { first, _ in first }
        var keys: [SigningKeyRing.Key] = []
        for record in try await store.signingKeys() where record.algorithm == "ES256" {
            if let known = opened[record.keyID], known.activatesAt == record.activatesAt {
                keys.append(known)
                continue
            }
            let raw: [UInt8]
            do {
                raw = try box.open(record.sealedPrivateKey, context: sealingContext)
            } catch SecretBoxError.cannotOpen {
                // Most likely another instance on this database sealed it with its own key.
                throw ConfigurationError(
                    "the token-signing key \(record.keyID) in the database cannot be opened with this server key: "
                        + "every instance on one database must use the same serverKey (SCA_SERVER_KEY)")
            }
            keys.append(SigningKeyRing.Key(record: record, privateKey: try P256.Signing.PrivateKey(rawRepresentation: raw)))
        }
        guard !keys.isEmpty else { throw ConfigurationError("the store holds no ES256 token-signing key") }
        let verifier = JWTKeyCollection()
        let published = schedule.published(keys, at: now, activation: \.activatesAt)
        for key in published {
            await verifier.add(ecdsa: try ES256PrivateKey(backing: key.privateKey), kid: JWKIdentifier(string: key.keyID))
        }
        return SigningKeyRing.Snapshot(keys: keys, verifier: verifier, publishedKeyIDs: Set(published.map(\.keyID)))
    }

    /// Signs with the current key, in the one accepted form (low `s`, see ``ES256SignatureForm``).
    ///
    /// Built here rather than by `JWTKeyCollection.sign`: its generic header is
    /// encoded anew for every token, which cost a cold start more than its ECDSA signature. The
    /// header never changes, so it is encoded once per key; the claims are encoded as the
    /// library encodes them (seconds since 1970), and the library still verifies.
    package func sign(_ claims: some JWTPayload) throws -> String {
        let key = current()
        return try sign(claims, header: key.headerSegment, with: key.privateKey)
    }

    /// As ``sign(_:)``, with `type` as the header's `typ`: a JWT made for one purpose (a signed
    /// introspection answer) that no verifier of another takes for its own.
    package func sign(_ claims: some JWTPayload, type: String) throws -> String {
        let key = current()
        // The key id and the type are base64url and a media type: nothing in them needs escaping in JSON.
        return try sign(
            claims, header: Array(Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(key.keyID)","typ":"\#(type)"}"#.utf8)).utf8),
            with: key.privateKey)
    }

    private func sign(_ claims: some JWTPayload, header: [UInt8], with privateKey: P256.Signing.PrivateKey) throws -> String {
        var token = header
        token.append(UInt8(ascii: "."))
        token.append(contentsOf: Base64URL.encode(try Self.claimsEncoder.encode(claims)).utf8)
        let signature = try privateKey.signature(for: token)
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

    /// Verifies with the published keys; a token naming a key id this instance has not read
    /// yet (rotated on another instance a moment ago) makes it read the keys once more.
    private func verified<Claims: JWTPayload>(_ token: String, as type: Claims.Type) async throws -> Claims {
        guard ES256SignatureForm.isCanonical(token: token) else { throw NonCanonicalSignature() }
        let snapshot = ring.snapshot
        do {
            return try await snapshot.verifier.verify(token, as: Claims.self)
        } catch {
            guard let keyID = Self.headerKeyID(of: token), !snapshot.publishedKeyIDs.contains(keyID), ring.mayReadForUnknownKey()
            else { throw error }
            try await reload()
            return try await ring.snapshot.verifier.verify(token, as: Claims.self)
        }
    }

    /// The `kid` of a compact JWS's header, if it has one.
    private static func headerKeyID(of token: String) -> String? {
        guard let end = token.firstIndex(of: "."), let header = Base64URL.decode(String(token[..<end])),
            case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: Data(header)),
            case .string(let keyID)? = fields["kid"]
        else { return nil }
        return keyID
    }

    /// - Throws: when the token is malformed, its signature is not in the one accepted form,
    ///   or does not verify with our keys.
    package func verify(_ token: String) async throws -> AccessTokenClaims {
        try await verified(token, as: AccessTokenClaims.self)
    }

    /// Another JWT this server signed (an id_token), by signature only: its claims are the
    /// caller's to check.
    package func verify<Claims: JWTPayload>(_ token: String, as type: Claims.Type) async throws -> Claims {
        try await verified(token, as: Claims.self)
    }

    /// As ``verify(_:)``, with the profile claims the token carries.
    func verifyProfiled(_ token: String) async throws -> ProfiledAccessClaims {
        try await verified(token, as: ProfiledAccessClaims.self)
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
