import SCACore

/// The retry loop of every optimistic write: a record is read, a change decided on it and
/// written only if the record's version is still the one read; when another writer came first,
/// the record is read again and the change decided again on what it now is.
package enum CompareAndSet {
    /// Rounds before a write that keeps losing gives up with `Problem.contention` (503, try
    /// again). Under real contention one writer wins each round, so this bounds how many
    /// parallel writers of one record are all served.
    static let attempts = 32

    /// Runs `attempt` on the record until it returns a result (its write won), reading the
    /// record again with `reload` after each lost round.
    /// - Parameters:
    ///   - loaded: the record as already read; nil reads it first with `reload`.
    ///   - attempt: decides and writes; nil when the compare-and-set lost. What it throws (a
    ///     refusal decided on the record) ends the loop.
    /// - Throws: `Problem.contention` after ``attempts`` lost rounds.
    package static func retrying<Record: Sendable, Result>(
        from loaded: Record? = nil, reload: () async throws -> Record,
        _ attempt: (Record) async throws -> Result?
    ) async throws -> Result {
        var record: Record
        if let loaded { record = loaded } else { record = try await reload() }
        for round in 1...attempts {
            if let result = try await attempt(record) { return result }
            if round < attempts { record = try await reload() }
        }
        throw Problem.contention
    }
}
