import Foundation
import SCACore
import SCAStorage

/// Token-signing key rotation: by command (`sca-server keys rotate`) and, with
/// `tokenKeys.rotationPeriod`, by the server itself; and the keys as an operator lists them.
/// Every rotation is recorded in the audit trail as `keys.rotated`.
package struct SigningKeyService: EngineService, Sendable {
    package let context: EngineContext
    let signer: TokenSigner

    /// When keys sign and are published.
    package var schedule: SigningKeySchedule { signer.schedule }

    /// Where a stored key stands at an instant.
    package enum Status: String, Sendable {
        /// Published, signing from its activation.
        case next
        /// Signs every new token.
        case signing
        /// Signs no more, published while tokens it signed may still be valid.
        case published
        /// Out of the JWKS; kept so that audit checkpoints it signed still verify.
        case retired
    }

    /// A stored key as `sca-server keys list` shows it.
    package struct Listed: Sendable, Equatable {
        package let keyID: String
        package let createdAt: Date
        package let activatesAt: Date
        package let status: Status
    }

    /// Stores a new key that signs after the pre-publication window and is published until
    /// then beside the current one. Recorded as `keys.rotated`.
    /// - Throws: `Problem.invalidRequest` while a key rotated before still waits to activate
    ///   (nothing is stored).
    @discardableResult
    package func rotate() async throws -> Listed {
        let now = runtime.now()
        switch try await signer.rotate(signer.schedule.commandedRotation(at: now)) {
        case .rotated(let key):
            await recordRotation(of: key, trigger: "command")
            return Listed(keyID: key.keyID, createdAt: key.createdAt, activatesAt: key.activatesAt, status: .next)
        case .refused(let newest):
            throw Problem.invalidRequest(
                "key \(newest.keyID) was rotated in already and starts to sign at \(Self.format(newest.activatesAt)); "
                    + "rotate again after that")
        }
    }

    /// Reads the keys again, then, when `tokenKeys.rotationPeriod` is set and the newest key is
    /// that old, rotates: every ``SigningKeySchedule/reloadInterval`` on each instance. Of
    /// instances due at once the store lets one rotate; the others read its key.
    package func refresh() async throws {
        try await signer.reload()
        let now = runtime.now()
        guard let rotation = signer.schedule.periodicRotation(at: now),
            let newest = signer.keys.first, newest.activatesAt <= rotation.newestActivatedBy
        else { return }
        if case .rotated(let key) = try await signer.rotate(rotation) {
            await recordRotation(of: key, trigger: "period")
            logger.notice(
                "token-signing key rotated", metadata: ["kid": "\(key.keyID)", "activatesAt": "\(Self.format(key.activatesAt))"])
        }
    }

    /// Every stored key, newest activation first, with where it stands now.
    package func list() -> [Listed] {
        let now = runtime.now()
        let keys = signer.keys
        let signing = signer.schedule.signing(keys, at: now, activation: \.activatesAt)?.keyID
        let published = Set(signer.schedule.published(keys, at: now, activation: \.activatesAt).map(\.keyID))
        return keys.map { key in
            let status: Status =
                key.keyID == signing ? .signing : key.activatesAt > now ? .next : published.contains(key.keyID) ? .published : .retired
            return Listed(keyID: key.keyID, createdAt: key.createdAt, activatesAt: key.activatesAt, status: status)
        }
    }

    private func recordRotation(of key: SigningKeyRecord, trigger: String) async {
        await audit.record(
            .keysRotated, details: ["keyId": key.keyID, "activatesAt": Self.format(key.activatesAt), "trigger": trigger])
    }

    private static func format(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
