import Crypto
import Foundation
import SCACore
import SCAStorage

/// Takes and checks signed checkpoints of the audit chain (``AuditCheckpoint``): the head's
/// sequence and hash, signed with the server's current token-signing key, so that a chain
/// later found shorter, or different at that entry, shows it was cut or rewritten.
public struct AuditCheckpoints: Sendable {
    /// Entries read per query while looking for the head.
    private static let pageSize = 1_000

    let store: any SCAStore
    let box: SecretBox
    let runtime: ServerRuntime
    /// The published keys (the JWKS), by key id: what a checkpoint is verified with.
    let publicKeys: [String: P256.Signing.PublicKey]

    /// - Throws: `ConfigurationError` when the server key cannot be read.
    public init(services: SCAServices) throws {
        store = services.store
        runtime = services.runtime
        box = SecretBox(key: try ServerKey.load(configuration: services.configuration, random: services.runtime.random))
        var keys: [String: P256.Signing.PublicKey] = [:]
        for key in services.tokens.jwks.keys {
            if let x = Base64URL.decode(key.x), let y = Base64URL.decode(key.y),
                let publicKey = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
            {
                keys[key.kid] = publicKey
            }
        }
        publicKeys = keys
    }

    /// The newest entry after `sequence` (nil when there is none), reading page by page.
    func head(after sequence: Int64 = 0) async throws -> AuditEntry? {
        var newest: AuditEntry?
        var after = sequence
        while true {
            let page = try await store.auditEntries(after: after, limit: Self.pageSize)
            if let last = page.last {
                newest = last
                after = last.sequence
            }
            if page.count < Self.pageSize { return newest }
        }
    }

    /// Signs a checkpoint of `head` (nil: an empty chain) with the newest signing key.
    /// - Returns: the checkpoint and its compact JWS.
    public func sign(head: AuditEntry?) async throws -> (checkpoint: AuditCheckpoint, jws: String) {
        guard let record = try await store.signingKeys().first(where: { $0.algorithm == "ES256" }) else {
            throw ConfigurationError("the store holds no ES256 signing key")
        }
        let key = try P256.Signing.PrivateKey(rawRepresentation: try box.open(record.sealedPrivateKey, context: TokenSigner.sealingContext))
        let checkpoint = AuditCheckpoint(head: head, time: runtime.now())
        return (checkpoint, try checkpoint.signed(with: key, keyID: record.keyID))
    }

    /// A signed checkpoint of the chain as it stands.
    public func take() async throws -> (checkpoint: AuditCheckpoint, jws: String) {
        try await sign(head: try await head())
    }

    /// Checks a checkpoint's signature against this server's published keys.
    /// - Throws: ``AuditCheckpointError``.
    public func verify(_ jws: String) throws -> AuditCheckpoint {
        try AuditCheckpoint.verify(jws, keys: publicKeys)
    }
}
