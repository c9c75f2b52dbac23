/// Why a checkpoint file cannot be trusted.
package enum AuditCheckpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a compact JWS, not a checkpoint, or its payload lacks a field.
    case malformed(String)
    /// Its `kid` names none of the server's signing keys.
    case unknownKey
    /// The signature does not verify: the checkpoint was changed or forged.
    case badSignature

    package var description: String {
        switch self {
        case .malformed(let reason): "checkpoint malformed: \(reason)"
        case .unknownKey: "checkpoint signed with a key this server does not have"
        case .badSignature: "checkpoint signature invalid (changed or forged)"
        }
    }
}
