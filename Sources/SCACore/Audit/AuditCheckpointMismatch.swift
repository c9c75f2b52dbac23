/// How an audit chain contradicts a checkpoint taken of it earlier.
package enum AuditCheckpointMismatch: Sendable, Equatable, CustomStringConvertible {
    /// The chain (intact part) ends before the checkpoint's sequence: newest entries were cut.
    case chainShorter(checkpoint: Int64, chain: Int64)
    /// The chain's entry at the checkpoint's sequence has another hash: it was rewritten.
    case hashDiffers(sequence: Int64)

    package var description: String {
        switch self {
        case .chainShorter(let checkpoint, let chain):
            "chain shorter than checkpoint: the checkpoint saw \(checkpoint) entries, the chain has \(chain) (newest entries cut)"
        case .hashDiffers(let sequence):
            "entry \(sequence) differs from the checkpoint (hash mismatch: the chain was rewritten)"
        }
    }
}
