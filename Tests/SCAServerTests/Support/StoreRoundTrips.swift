import InMemoryTracing
import SCAStorage
import Tracing

/// Counts the store round trips of one request: the spans the real store records, one per
/// call that reaches the database (SQLite: one per read or write transaction; PostgreSQL: one
/// per statement or transaction it sends), each named after the store operation that made it.
/// A store records a span only inside a request's, so background sweeps never count.
struct StoreRoundTrips: Sendable {
    /// One call into the store, as its span named it.
    struct Call: Sendable, Equatable, CustomStringConvertible {
        /// `store.read` or `store.write` (SQLite), `store.statement` or `store.transaction`
        /// (PostgreSQL).
        var kind: String
        /// The store operation (`proofContext`, `commitProof`).
        var operation: String

        var description: String { "\(operation) (\(kind))" }

        /// Whether it is a write transaction: exact on SQLite. On PostgreSQL one statement may
        /// write (a proof's commit in one statement) and a transaction may only read, so
        /// there the kind tells little.
        var isWrite: Bool { kind == "store.write" || kind == "store.transaction" }
    }

    let tracer = InMemoryTracer()

    /// The recorder to give the server (and a PostgreSQL store).
    var recorder: TraceRecorder { TraceRecorder(tracer) }

    /// Runs `body` (one request, or a few) and returns what it returned with the store calls it made.
    func during<Result>(_ body: () async throws -> Result) async throws -> (Result, [Call]) {
        tracer.clearAll()
        let result = try await body()
        let calls = tracer.popFinishedSpans().filter { $0.operationName.hasPrefix("store.") }.map { span in
            let operation: String
            if case .string(let name)? = span.attributes.get("sca.store.operation") { operation = name } else { operation = "?" }
            return Call(kind: span.operationName, operation: operation)
        }
        return (result, calls)
    }
}
