import Crypto
import Foundation

/// A signed statement of how far the audit chain reached at a moment: the sequence number and
/// hash of its newest entry. The chain alone cannot show that its newest entries were cut
/// (what is left still links up); a checkpoint kept outside the data directory can: a chain
/// shorter than a checkpoint, or with another hash at its sequence, was cut or rewritten.
///
/// The checkpoint travels as a compact JWS (RFC 7515), ES256, signed with the server's
/// token-signing key and verifiable with the public key published in its JWKS. The header
/// has `"typ": "sca-audit-checkpoint+jws"` and the payload is
/// `{"hash": "<hex>", "sequence": <n>, "time": <unix seconds>}`, so a checkpoint can never
/// pass for an access token or the other way round.
package struct AuditCheckpoint: Sendable, Equatable {
    /// The JWS `typ` of a checkpoint.
    package static let type = "sca-audit-checkpoint+jws"
    /// The JWS `typ` of a cut's checkpoint: a type of its own, so that a periodic checkpoint
    /// can never pass for the statement that entries up to it were archived.
    package static let cutType = "sca-audit-cut+jws"

    /// The sequence number of the newest entry (0 for an empty chain).
    package var sequence: Int64
    /// The hash of that entry (``AuditEntry/genesisHash`` for an empty chain).
    package var hash: String
    /// When the checkpoint was taken, in whole seconds.
    package var time: Date
    /// For a cut's checkpoint: the SHA-256 (hex) of the archive file that holds the entries up
    /// to ``sequence``, so the statement binds the archive as well as the cut.
    package var archiveDigest: String?

    package init(sequence: Int64, hash: String, time: Date, archiveDigest: String? = nil) {
        self.sequence = sequence
        self.hash = hash
        self.time = Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down))
        self.archiveDigest = archiveDigest
    }

    /// The checkpoint of a chain whose newest entry is `head` (nil: an empty chain).
    package init(head: AuditEntry?, time: Date) {
        self.init(sequence: head?.sequence ?? 0, hash: head?.hash ?? AuditEntry.genesisHash, time: time)
    }

    // MARK: Comparing with a chain

    /// Compares the checkpoint with a chain that verified intact up to `chainLength` entries,
    /// given the hash the chain holds at ``sequence`` (nil when it is shorter).
    /// - Returns: what is wrong, or nil when the chain still holds everything the checkpoint saw.
    package func mismatch(chainLength: Int64, hashAtSequence: String?) -> AuditCheckpointMismatch? {
        guard sequence > 0 else {
            return nil
        }
        guard chainLength >= sequence, let hashAtSequence else {
            return .chainShorter(checkpoint: sequence, chain: chainLength)
        }
        guard ConstantTime.equals(Array(hashAtSequence.utf8), Array(hash.utf8)) else {
            return .hashDiffers(sequence: sequence)
        }
        return nil
    }

    // MARK: JWS

    /// The payload, canonical (RFC 8785) so that the signed bytes are reproducible.
    var payload: [UInt8] {
        var members: [String: JSONValue] = [
            "sequence": .number(Double(sequence)), "hash": .string(hash),
            "time": .number(time.timeIntervalSince1970),
        ]
        if let archiveDigest { members["archive"] = .string(archiveDigest) }
        return JCS.canonicalize(.object(members))
    }

    /// The compact JWS of this checkpoint, signed with `key` and naming `keyID` as `kid`.
    package func signed(with key: P256.Signing.PrivateKey, keyID: String) throws -> String {
        let header = JCS.canonicalize([
            "alg": "ES256", "kid": .string(keyID), "typ": .string(archiveDigest == nil ? Self.type : Self.cutType),
        ])
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// Reads a compact JWS and checks its signature with the key its `kid` names.
    /// - Parameter keys: the public keys by key id, as in the server's JWKS.
    /// - Throws: ``AuditCheckpointError`` naming what is wrong.
    package static func verify(_ jws: String, keys: [String: P256.Signing.PublicKey]) throws -> AuditCheckpoint {
        let parts = jws.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(String(parts[0])),
            let payloadBytes = Base64URL.decode(String(parts[1])), let signatureBytes = Base64URL.decode(String(parts[2])),
            case .object(let header)? = try? JSONDecoder().decode(JSONValue.self, from: Data(headerBytes))
        else {
            throw AuditCheckpointError.malformed("not a compact JWS")
        }
        guard header["alg"] == .string("ES256"), header["typ"] == .string(type) || header["typ"] == .string(cutType) else {
            throw AuditCheckpointError.malformed("not an ES256 audit checkpoint (alg and typ)")
        }
        guard case .string(let keyID)? = header["kid"], let key = keys[keyID] else {
            throw AuditCheckpointError.unknownKey
        }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            key.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
        else {
            throw AuditCheckpointError.badSignature
        }
        guard case .object(let payload)? = try? JSONDecoder().decode(JSONValue.self, from: Data(payloadBytes)),
            case .number(let sequence)? = payload["sequence"], sequence >= 0, sequence == sequence.rounded(),
            sequence < 9_007_199_254_740_992,
            case .string(let hash)? = payload["hash"], hash.utf8.count == 64,
            case .number(let time)? = payload["time"]
        else {
            throw AuditCheckpointError.malformed("the payload lacks sequence, hash or time")
        }
        // A cut's checkpoint names its archive; a periodic one names none.
        var archiveDigest: String?
        if header["typ"] == .string(cutType) {
            guard case .string(let digest)? = payload["archive"], digest.utf8.count == 64 else {
                throw AuditCheckpointError.malformed("a cut's checkpoint lacks its archive's digest")
            }
            archiveDigest = digest
        } else if payload["archive"] != nil {
            throw AuditCheckpointError.malformed("a checkpoint names an archive without being a cut's")
        }
        return AuditCheckpoint(
            sequence: Int64(sequence), hash: hash, time: Date(timeIntervalSince1970: time), archiveDigest: archiveDigest)
    }
}
