/// A device signature checked by pure code (``FactorVerifier/judgeSignature(_:by:challenge:)``).
enum SignatureJudgement: Sendable, Equatable {
    /// Valid; `burn` is the hash that makes it count once.
    case right(burn: [UInt8])
    case wrong
}
