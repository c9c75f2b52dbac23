/// The first place where a stored audit chain is not what appending produced.
package enum AuditChainBreak: Sendable, Equatable, CustomStringConvertible {
    /// An entry is missing (deleted) or out of place: `expected` came next, `found` came.
    case sequenceGap(expected: Int64, found: Int64)
    /// The entry at `sequence` does not link to the entry before it (reordered, or the one
    /// before was replaced).
    case prevHashMismatch(sequence: Int64)
    /// The entry at `sequence` does not hash to its stored hash (edited).
    case hashMismatch(sequence: Int64)
    /// The personal facts stored beside the entry at `sequence` are not the ones its digest was
    /// made from (edited; erasing them is allowed and does not show here).
    case personalFactsMismatch(sequence: Int64)

    /// The sequence number where the chain breaks.
    package var sequence: Int64 {
        switch self {
        case .sequenceGap(_, let found): found
        case .prevHashMismatch(let sequence), .hashMismatch(let sequence), .personalFactsMismatch(let sequence): sequence
        }
    }

    package var description: String {
        switch self {
        case .sequenceGap(let expected, let found):
            "sequence gap: expected entry \(expected), found \(found) (entries deleted or reordered)"
        case .prevHashMismatch(let sequence):
            "entry \(sequence): prevHash does not match the hash of entry \(sequence - 1)"
        case .hashMismatch(let sequence):
            "entry \(sequence): content does not match its hash (edited)"
        case .personalFactsMismatch(let sequence):
            "entry \(sequence): its personal facts do not match their digest (edited)"
        }
    }
}
