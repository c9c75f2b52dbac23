import Crypto
import Foundation
import SCACore
import Testing

@Suite("Audit checkpoints: signed JWS and comparison with the chain")
struct AuditCheckpointTests {
    let key = P256.Signing.PrivateKey()
    var keys: [String: P256.Signing.PublicKey] { ["k1": key.publicKey] }
    static let time = Date(timeIntervalSince1970: 1_700_000_000.75)

    /// A chain of `count` linked entries, as the store appends them.
    static func chain(_ count: Int) -> [AuditEntry] {
        var entries: [AuditEntry] = []
        var previous = AuditEntry.genesisHash
        for sequence in 1...Int64(count) {
            let entry = AuditEntry(
                sequence: sequence,
                draft: AuditEntryDraft(time: time + Double(sequence), event: "token.issued", actor: "client", outcome: "success"),
                prevHash: previous)
            entries.append(entry)
            previous = entry.hash
        }
        return entries
    }

    /// The JWS with its payload replaced, header and signature kept.
    static func replacingPayload(of jws: String, with payload: String) -> String {
        let parts = jws.split(separator: ".").map(String.init)
        return [parts[0], Base64URL.encode(Array(payload.utf8)), parts[2]].joined(separator: ".")
    }

    @Test("a cut's checkpoint has a type of its own and names its archive; neither passes for the other")
    func cutCheckpoint() throws {
        let head = Self.chain(3)[2]
        let digest = String(repeating: "ab", count: 32)
        let cut = AuditCheckpoint(sequence: head.sequence, hash: head.hash, time: Self.time, archiveDigest: digest)
        let jws = try cut.signed(with: key, keyID: "k1")
        let header = try #require(Base64URL.decode(String(jws.split(separator: ".")[0])))
        #expect(String(decoding: header, as: UTF8.self).contains(AuditCheckpoint.cutType))
        #expect(try AuditCheckpoint.verify(jws, keys: keys) == cut)
        // A periodic checkpoint of the same entry is not a cut's statement.
        let periodic = try AuditCheckpoint(head: head, time: Self.time).signed(with: key, keyID: "k1")
        #expect(try AuditCheckpoint.verify(periodic, keys: keys).archiveDigest == nil)
        // A cut's type without the archive, or a periodic type with one, is malformed (signed
        // by the key, so only the rule refuses them).
        func signed(header: String, payload: String) throws -> String {
            let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
            return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
        }
        let payload = #"{"hash":"\#(head.hash)","sequence":3,"time":1700000000}"#
        let withArchive = #"{"archive":"\#(digest)","hash":"\#(head.hash)","sequence":3,"time":1700000000}"#
        #expect(throws: AuditCheckpointError.self) {
            try AuditCheckpoint.verify(
                try signed(header: #"{"alg":"ES256","kid":"k1","typ":"sca-audit-cut+jws"}"#, payload: payload), keys: keys)
        }
        #expect(throws: AuditCheckpointError.self) {
            try AuditCheckpoint.verify(
                try signed(header: #"{"alg":"ES256","kid":"k1","typ":"sca-audit-checkpoint+jws"}"#, payload: withArchive), keys: keys)
        }
    }

    @Test("signed and verified: sequence, hash and time (whole seconds) come back")
    func roundTrip() throws {
        let head = Self.chain(3)[2]
        let checkpoint = AuditCheckpoint(head: head, time: Self.time)
        let jws = try checkpoint.signed(with: key, keyID: "k1")
        let read = try AuditCheckpoint.verify(jws + "\n", keys: keys)
        #expect(read == checkpoint)
        #expect(read.sequence == 3)
        #expect(read.hash == head.hash)
        #expect(read.time == Date(timeIntervalSince1970: 1_700_000_000))
        let header = try #require(Base64URL.decode(String(jws.split(separator: ".")[0])))
        #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"ES256","kid":"k1","typ":"sca-audit-checkpoint+jws"}"#)
    }

    @Test("a changed sequence, another key or a foreign kid is refused")
    func forgeries() throws {
        let head = Self.chain(3)[2]
        let jws = try AuditCheckpoint(head: head, time: Self.time).signed(with: key, keyID: "k1")
        let forged = Self.replacingPayload(
            of: jws, with: #"{"hash":"\#(head.hash)","sequence":5,"time":1700000000}"#)
        #expect(throws: AuditCheckpointError.badSignature) { try AuditCheckpoint.verify(forged, keys: keys) }
        #expect(throws: AuditCheckpointError.badSignature) {
            try AuditCheckpoint.verify(jws, keys: ["k1": P256.Signing.PrivateKey().publicKey])
        }
        #expect(throws: AuditCheckpointError.unknownKey) { try AuditCheckpoint.verify(jws, keys: ["k2": key.publicKey]) }
        #expect(throws: AuditCheckpointError.self) { try AuditCheckpoint.verify("not.a-jws", keys: keys) }
    }

    @Test("an access-token-shaped JWS signed with the same key is not a checkpoint")
    func otherTypeRefused() throws {
        let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"k1","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(Array(#"{"hash":"\#(AuditEntry.genesisHash)","sequence":0,"time":1}"#.utf8))
        let signature = try key.signature(for: Data("\(header).\(payload)".utf8))
        let token = "\(header).\(payload).\(Base64URL.encode(signature.rawRepresentation))"
        #expect(throws: AuditCheckpointError.malformed("not an ES256 audit checkpoint (alg and typ)")) {
            try AuditCheckpoint.verify(token, keys: keys)
        }
    }

    @Test("the chain still holding the checkpoint's entry, possibly grown since, matches")
    func matches() {
        let chain = Self.chain(5)
        let checkpoint = AuditCheckpoint(head: chain[2], time: Self.time)
        #expect(checkpoint.mismatch(chainLength: 3, hashAtSequence: chain[2].hash) == nil)
        #expect(checkpoint.mismatch(chainLength: 5, hashAtSequence: chain[2].hash) == nil)
        // A checkpoint of an empty chain holds for every chain.
        #expect(AuditCheckpoint(head: nil, time: Self.time).mismatch(chainLength: 0, hashAtSequence: nil) == nil)
    }

    @Test("a chain cut below the checkpoint, or with another entry there, contradicts it")
    func mismatches() {
        let chain = Self.chain(5)
        let checkpoint = AuditCheckpoint(head: chain[4], time: Self.time)
        #expect(checkpoint.mismatch(chainLength: 3, hashAtSequence: nil) == .chainShorter(checkpoint: 5, chain: 3))
        #expect(checkpoint.mismatch(chainLength: 0, hashAtSequence: nil) == .chainShorter(checkpoint: 5, chain: 0))
        #expect(checkpoint.mismatch(chainLength: 5, hashAtSequence: chain[3].hash) == .hashDiffers(sequence: 5))
        #expect(
            AuditCheckpointMismatch.chainShorter(checkpoint: 5, chain: 3).description.contains("chain shorter than checkpoint"))
    }
}
