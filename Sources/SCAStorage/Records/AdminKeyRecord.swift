import Foundation
import SCACore

/// A scoped admin API key as stored: its non-secret id (the key's prefix), a name for people
/// and the audit trail, its scopes, and only a SHA-256 hash of the key itself, which is shown
/// once when created and never kept.
public struct AdminKeyRecord: Sendable, Equatable {
    /// `ak_` and 16 lower-case hex digits: the part of the key before the dot, not a secret.
    public var id: String
    /// Unique among all keys, revoked ones included, so the audit trail names one key.
    public var name: String
    /// Sorted, each once.
    public var scopes: [AdminScope]
    /// SHA-256 of the whole key (id, dot and secret).
    public var keyHash: [UInt8]
    public var createdAt: Date
    /// When the key last admitted a request, to the minute (see ``AdminKeyRecord/shouldRecordUse(at:)``).
    public var lastUsedAt: Date?
    /// Set once; a revoked key admits nothing.
    public var revokedAt: Date?

    public init(
        id: String, name: String, scopes: [AdminScope], keyHash: [UInt8], createdAt: Date, lastUsedAt: Date? = nil,
        revokedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.scopes = scopes
        self.keyHash = keyHash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}
