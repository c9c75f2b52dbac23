import ArgumentParser

/// Which client drives the flows.
enum BenchMode: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// The real SDK (`SCAClient` over URLSession): what an app pays.
    case sdk
    /// ``RawClient``: keep-alive HTTP, device keys made once: what the server costs.
    case raw
}
