import Foundation
import SCACore
import SCAStorage

/// Scoped admin API keys: created (the key shown once, only its hash kept), listed and revoked
/// by `sca-server admin-key`, on the database itself: whoever manages keys has the database,
/// so no key can mint a stronger one. Every change is recorded in the audit trail by name.
package struct AdminKeyService: EngineService, Sendable {
    package let context: EngineContext

    /// A key just created: the record, and the key itself, which nothing keeps.
    package struct Created: Sendable {
        package let record: AdminKeyRecord
        /// `ak_….…`: show it once; only its SHA-256 is stored.
        package let key: String
    }

    /// Recorded as `admin.key_created` with the name and scopes.
    /// - Throws: `Problem.invalidRequest` for a bad name or scope list, or a name in use
    ///   (revoked keys keep theirs, so the audit trail names one key).
    package func create(name: String, scopes: String) async throws -> Created {
        guard AdminKeyRecord.isValidName(name) else {
            throw Problem.invalidRequest("a key name is 1 to 64 letters, digits, '.', '_' or '-'")
        }
        let parsed: [AdminScope]
        switch AdminScope.list(scopes) {
        case .success(let list): parsed = list
        case .failure(let invalid):
            throw Problem.invalidRequest(
                invalid.word.isEmpty
                    ? "give at least one scope"
                    : "unknown scope \(invalid.word); scopes: \(AdminScope.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let (id, key) = AdminKeyCredential.make(random: runtime.random)
        let record = AdminKeyRecord(
            id: id, name: name, scopes: parsed, keyHash: AdminKeyCredential.hash(key), createdAt: runtime.now())
        do {
            try await store.createAdminKey(record)
        } catch StoreError.conflict("name") {
            throw Problem.invalidRequest("a key named \(name) exists already (revoked keys keep their names)")
        }
        await audit.record(
            .adminKeyCreated, details: ["key": name, "keyId": id, "scopes": parsed.map(\.rawValue).joined(separator: ",")])
        return Created(record: record, key: key)
    }

    /// Every key, revoked ones included, oldest first.
    package func list() async throws -> [AdminKeyRecord] {
        try await store.adminKeys()
    }

    /// Revokes a key named by its name or id; it stops at once, on every instance. Recorded as
    /// `admin.key_revoked` (revoking a revoked key changes and records nothing).
    /// - Throws: `Problem.invalidRequest` when no key has that name or id.
    @discardableResult
    package func revoke(_ nameOrID: String) async throws -> AdminKeyRecord {
        let keys = try await store.adminKeys()
        guard let key = keys.first(where: { $0.id == nameOrID }) ?? keys.first(where: { $0.name == nameOrID }) else {
            throw Problem.invalidRequest("no admin key named \(nameOrID)")
        }
        guard key.revokedAt == nil else { return key }
        guard let revoked = try await store.revokeAdminKey(id: key.id, now: runtime.now()) else {
            throw Problem.invalidRequest("no admin key named \(nameOrID)")
        }
        await audit.record(.adminKeyRevoked, details: ["key": key.name, "keyId": key.id])
        return revoked
    }
}
