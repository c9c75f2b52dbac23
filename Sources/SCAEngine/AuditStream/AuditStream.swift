import Foundation
import SCACore
import SCAStorage

/// Sends the audit trail to the bank's SIEM as it is written (`auditStream.url`): at least
/// once, in sequence order, each entry with its chain hash, so a lockout shows there within
/// seconds instead of at the next export.
///
/// Each pass (every second in `serve`) takes the stream's lease in the store, reads the entries
/// after the last one the sink took, sends them in batches and moves the cursor after each batch
/// the sink took, in the same keyed state: of several instances on one database one sends at a
/// time, and a crash or a failed send sends from the cursor again. Entries the retention cut
/// archived before they went out are not in the database any more: the stream says so in the
/// log and goes on from the first entry kept (the archive has the rest). A stream turned on for
/// the first time starts at the first entry the database holds.
package struct AuditStream: EngineService, Sendable {
    package let context: EngineContext
    package let sink: any AuditSink
    /// This instance, for the lease.
    let instance: String

    /// Entries a batch carries at most.
    static let batchSize = 200
    /// How long a lease lasts without renewal: a stopped instance's lease passes on after it.
    static let lease: TimeInterval = 30

    package init(context: EngineContext, sink: any AuditSink, instance: String) {
        self.context = context
        self.sink = sink
        self.instance = instance
    }

    /// Sends what was written since the last pass.
    /// - Returns: how many entries the sink took.
    /// - Throws: the sink's failure, after the batches before it were recorded.
    @discardableResult
    package func pass() async throws -> Int {
        let key = AuditStreamState.keyPrefix
        let now = runtime.now()
        let instance = self.instance
        guard var cursor = try await store.updateRiskState(key: key, as: AuditStreamState.self, { state in
            state.claim(by: instance, at: now, until: now.addingTimeInterval(Self.lease))
        }) else { return 0 }
        var taken = 0
        while true {
            let entries = try await store.auditEntries(after: cursor, limit: Self.batchSize)
            guard let last = entries.last else { return taken }
            if cursor > 0, let first = entries.first, first.sequence != cursor + 1 {
                logger.warning(
                    "audit entries archived before they were streamed",
                    metadata: ["from": "\(cursor + 1)", "to": "\(first.sequence - 1)"])
            }
            try await sink.send(entries)
            let from = cursor
            guard try await store.updateRiskState(key: key, as: AuditStreamState.self, { state in
                state.advance(from: from, to: last.sequence, by: instance)
            }) else { return taken }
            cursor = last.sequence
            taken += entries.count
            if entries.count < Self.batchSize { return taken }
        }
    }
}
