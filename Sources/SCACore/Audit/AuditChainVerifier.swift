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
    /// The keyed hash of sealed personal facts, when the verifier holds the server's key.
    private let personalMAC: (@Sendable ([UInt8]) -> [UInt8])?

    /// A verifier of a whole chain, from entry 1.
    /// - Parameter personalMAC: the keyed hash that sealed personal facts, to check the facts
    ///   kept beside each entry against their digest; nil checks the chain alone.
    package init(personalMAC: (@Sendable ([UInt8]) -> [UInt8])? = nil) {
        self.personalMAC = personalMAC
    }

    /// A verifier of a chain whose entries up to `sequence` were archived and cut: the first
    /// entry kept must be `sequence + 1` and link to `hash`, the last archived entry's hash.
    package init(after sequence: Int64, hash: String, personalMAC: (@Sendable ([UInt8]) -> [UInt8])? = nil) {
        self.personalMAC = personalMAC
        expectedSequence = sequence + 1
        previousHash = hash
    }

    /// Checks the next entry against the ones before.
    /// - Returns: the break, or nil while the chain is intact.
    package mutating func check(_ entry: AuditEntry) -> AuditChainBreak? {
        guard entry.sequence == expectedSequence else {
            return .sequenceGap(expected: expectedSequence, found: entry.sequence)
        }
        guard entry.prevHash == previousHash else { return .prevHashMismatch(sequence: entry.sequence) }
        guard entry.computedHash() == entry.hash else { return .hashMismatch(sequence: entry.sequence) }
        if let personalMAC, !entry.draft.personalFactsMatch(personalMAC) {
            return .personalFactsMismatch(sequence: entry.sequence)
        }
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
