import SCACore

/// The console's risk page: the fraud rates of a quarter and of the quarters before it, and
/// what the risk engine did in it.
package struct ConsoleRiskOverview: Sendable {
    /// One report per quarter, oldest first, the quarter asked for last.
    package var reports: [RiskReport]
    package var activity: RiskActivity

    /// The quarter asked for.
    package var report: RiskReport { reports[reports.count - 1] }
}
