import Crypto
import Foundation
import SCACore
import SCAStorage

/// Takes and checks signed checkpoints of the audit chain (``AuditCheckpoint``): the head's
/// sequence and hash, signed with the server's current token-signing key, so that a chain
/// later found shorter, or different at that entry, shows it was cut or rewritten.
package struct AuditCheckpoints: Sendable {
    let store: any SCAStore
    let runtime: ServerRuntime
    /// The token signer: its current key signs, and every key it ever stored verifies, since
    /// a checkpoint is kept long after its key left the JWKS.
    let signer: TokenSigner
    /// Checks the personal facts kept beside sealed entries against their digest.
    let personalMAC: @Sendable ([UInt8]) -> [UInt8]

    /// Uses the store, clock and the keys `tokens` signs with.
    package init(store: any SCAStore, runtime: ServerRuntime, tokens: TokenService) {
        self.store = store
        self.runtime = runtime
        signer = tokens.signer
        personalMAC = tokens.context.audit.personalMAC
    }

    /// The newest entry if its sequence is above `sequence`; nil when there is none (an empty
    /// chain, or one that has not grown past `sequence`).
    func head(after sequence: Int64 = 0) async throws -> AuditEntry? {
        try await store.newestAuditEntry().flatMap { $0.sequence > sequence ? $0 : nil }
    }

    /// Signs a checkpoint of `head` (nil: an empty chain) with the key that signs tokens now.
    /// - Returns: the checkpoint and its compact JWS.
    package func sign(head: AuditEntry?) async throws -> (checkpoint: AuditCheckpoint, jws: String) {
        let key = signer.signingKey()
        let checkpoint = AuditCheckpoint(head: head, time: runtime.now())
        return (checkpoint, try checkpoint.signed(with: key.privateKey, keyID: key.keyID))
    }

    /// Signs the checkpoint of a cut at `head`, binding the archive whose SHA-256 is
    /// `archiveDigest` (``AuditCheckpoint/cutType``).
    package func signCut(at head: AuditEntry, archiveDigest: String) throws -> String {
        let key = signer.signingKey()
        let checkpoint = AuditCheckpoint(
            sequence: head.sequence, hash: head.hash, time: runtime.now(), archiveDigest: archiveDigest)
        return try checkpoint.signed(with: key.privateKey, keyID: key.keyID)
    }

    /// A signed checkpoint of the chain as it stands.
    package func take() async throws -> (checkpoint: AuditCheckpoint, jws: String) {
        try await sign(head: try await head())
    }

    /// Checks a checkpoint's signature against every key this server ever signed with,
    /// retired ones included.
    /// - Throws: ``AuditCheckpointError``.
    package func verify(_ jws: String) throws -> AuditCheckpoint {
        try AuditCheckpoint.verify(jws, keys: signer.everyPublicKey)
    }
}
