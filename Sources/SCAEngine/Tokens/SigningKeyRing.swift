import Crypto
import Foundation
import JWTKit
import SCACore
import SCAStorage
import Synchronization

/// The token-signing keys as this instance last read them from the store, opened, and swapped
/// whole at each read: signing takes the key of the moment from memory, without a query, and
/// every instance that read the same rows signs with the same key at the same instant.
final class SigningKeyRing: Sendable {
    /// One stored key, opened.
    struct Key: Sendable {
        let keyID: String
        let createdAt: Date
        let activatesAt: Date
        let privateKey: P256.Signing.PrivateKey
        /// The base64url of its fixed JOSE header, encoded once.
        let headerSegment: [UInt8]

        init(record: SigningKeyRecord, privateKey: P256.Signing.PrivateKey) {
            keyID = record.keyID
            createdAt = record.createdAt
            activatesAt = record.activatesAt
            self.privateKey = privateKey
            // A key id is base64url: nothing in it needs escaping in JSON.
            headerSegment = Array(Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(record.keyID)","typ":"JWT"}"#.utf8)).utf8)
        }
    }

    /// What one read found.
    struct Snapshot: Sendable {
        /// Every stored ES256 key, newest activation first.
        let keys: [Key]
        /// The keys published when it was read: tokens verify against them.
        let verifier: JWTKeyCollection
        let publishedKeyIDs: Set<String>
    }

    private let state: Mutex<Snapshot>
    /// When a token with an unknown key id last made this instance read the keys again.
    private let lastUnknownKeyRead = Mutex<ContinuousClock.Instant?>(nil)

    init(_ snapshot: Snapshot) {
        state = Mutex(snapshot)
    }

    var snapshot: Snapshot { state.withLock { $0 } }

    /// Takes `snapshot` unless it holds fewer keys than the one held: keys are never deleted,
    /// so a read that finished late with fewer rows is older, and is dropped.
    func replace(with snapshot: Snapshot) {
        state.withLock { if snapshot.keys.count >= $0.keys.count { $0 = snapshot } }
    }

    /// Whether a token naming a key id this instance does not know may make it read the keys
    /// again now: at most once a second, so tokens with made-up key ids cannot make every
    /// request a query.
    func mayReadForUnknownKey() -> Bool {
        let now = ContinuousClock.now
        return lastUnknownKeyRead.withLock { last in
            if let last, now - last < .seconds(1) { return false }
            last = now
            return true
        }
    }
}
