/// Walks audit entries in sequence order and names the first broken link. Feed it page by
/// page with ``check(_:)``, so a long trail never has to be in memory at once.
///
/// What a chain alone cannot show: entries cut off at the end (the last hash must be kept
/// elsewhere, e.g. in an export or an external log, to detect that).
package struct AuditChainVerifier: Sendable {
    /// Entries checked so far, all intact.
    package private(set) var count: Int64 = 0
    private var expectedSequence: Int64 = 1
    private var previousHash = AuditEntry.genesisHash

    package init() {}

    /// Checks the next entry against the ones before.
    /// - Returns: the break, or nil while the chain is intact.
    package mutating func check(_ entry: AuditEntry) -> AuditChainBreak? {
        guard entry.sequence == expectedSequence else {
            return .sequenceGap(expected: expectedSequence, found: entry.sequence)
        }
        guard entry.prevHash == previousHash else { return .prevHashMismatch(sequence: entry.sequence) }
        guard entry.computedHash() == entry.hash else { return .hashMismatch(sequence: entry.sequence) }
        expectedSequence += 1
        previousHash = entry.hash
        count += 1
        return nil
    }

    /// Checks a whole chain from entry 1.
    package static func verify(_ entries: some Sequence<AuditEntry>) -> AuditChainBreak? {
        var verifier = AuditChainVerifier()
        for entry in entries {
            if let broken = verifier.check(entry) { return broken }
        }
        return nil
    }
}
