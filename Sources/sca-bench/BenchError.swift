/// A failure of the harness itself (not of a measured flow): bad options, an admin call refused,
/// a server that did not start.
struct BenchError: Error, CustomStringConvertible, Sendable {
    var description: String
    init(_ description: String) { self.description = description }
}
