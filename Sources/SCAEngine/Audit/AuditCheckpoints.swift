import Crypto
import Foundation
import SCACore
import SCAStorage

/// Takes and checks signed checkpoints of the audit chain (``AuditCheckpoint``): the head's
/// sequence and hash, signed with the server's current token-signing key, so that a chain
/// later found shorter, or different at that entry, shows it was cut or rewritten.
package struct AuditCheckpoints: Sendable {
    let store: any SCAStore
    let box: SecretBox
    let runtime: ServerRuntime
    /// The published keys (the JWKS), by key id: what a checkpoint is verified with.
    let publicKeys: [String: P256.Signing.PublicKey]

    /// Uses the store, clock, server key and the keys `tokens` publishes.
    package init(store: any SCAStore, box: SecretBox, runtime: ServerRuntime, tokens: TokenService) {
        self.store = store
        self.runtime = runtime
        self.box = box
        var keys: [String: P256.Signing.PublicKey] = [:]
        for key in tokens.jwks.keys {
            if let x = Base64URL.decode(key.x), let y = Base64URL.decode(key.y),
                let publicKey = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
            {
                keys[key.kid] = publicKey
            }
        }
        publicKeys = keys
    }

    /// The newest entry if its sequence is above `sequence`; nil when there is none (an empty
    /// chain, or one that has not grown past `sequence`).
    func head(after sequence: Int64 = 0) async throws -> AuditEntry? {
        try await store.newestAuditEntry().flatMap { $0.sequence > sequence ? $0 : nil }
    }

    /// Signs a checkpoint of `head` (nil: an empty chain) with the newest signing key.
    /// - Returns: the checkpoint and its compact JWS.
    package func sign(head: AuditEntry?) async throws -> (checkpoint: AuditCheckpoint, jws: String) {
        guard let record = try await store.signingKeys().first(where: { $0.algorithm == "ES256" }) else {
            throw ConfigurationError("the store holds no ES256 signing key")
        }
        let key = try P256.Signing.PrivateKey(rawRepresentation: try box.open(record.sealedPrivateKey, context: TokenSigner.sealingContext))
        let checkpoint = AuditCheckpoint(head: head, time: runtime.now())
        return (checkpoint, try checkpoint.signed(with: key, keyID: record.keyID))
    }

    /// A signed checkpoint of the chain as it stands.
    package func take() async throws -> (checkpoint: AuditCheckpoint, jws: String) {
        try await sign(head: try await head())
    }

    /// Checks a checkpoint's signature against this server's published keys.
    /// - Throws: ``AuditCheckpointError``.
    package func verify(_ jws: String) throws -> AuditCheckpoint {
        try AuditCheckpoint.verify(jws, keys: publicKeys)
    }
}
