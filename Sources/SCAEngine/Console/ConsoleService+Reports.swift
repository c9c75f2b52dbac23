import Foundation
import SCACore
import SCAStorage

// The console's risk and audit pages: reads under the admin API's permissions (`risk:read` as
// `GET /admin/v1/risk/report`, `audit:read` as `GET /admin/v1/audit`), of the data those routes
// answer with.
extension ConsoleService {
    /// How many quarters the fraud-rate chart shows, the one asked for last.
    package static let quartersCharted = 4
    /// The audit entries one page of the audit view lists.
    package static let auditPageLength = 50

    /// The risk page of `quarter`. Needs `risk:read`.
    package func riskOverview(_ quarter: Quarter, by actor: ConsoleOperator) async throws -> ConsoleRiskOverview {
        try await requireRead(.riskRead, by: actor)
        var quarters = [quarter]
        while quarters.count < Self.quartersCharted { quarters.insert(quarters[0].previous, at: 0) }
        var reports: [RiskReport] = []
        for period in quarters { reports.append(try await risk.report(quarter: period)) }
        return ConsoleRiskOverview(reports: reports, activity: try await risk.activity(quarter: quarter))
    }

    /// The report of `quarter` alone, as `sca-server risk report` prints it. Needs `risk:read`.
    package func riskReport(_ quarter: Quarter, by actor: ConsoleOperator) async throws -> RiskReport {
        try await requireRead(.riskRead, by: actor)
        return try await risk.report(quarter: quarter)
    }

    /// A page of the audit view: the entries `filter` matches below `sequence` (nil: the
    /// newest), newest first. Needs `audit:read`.
    package func auditEntries(
        matching filter: AuditFilter, before sequence: Int64?, by actor: ConsoleOperator
    ) async throws -> [AuditEntry] {
        try await requireRead(.auditRead, by: actor)
        return try await store.auditEntries(matching: filter, .before(sequence), limit: Self.auditPageLength)
    }

    /// The export of what `filter` matches, in `sca-server audit export`'s lines. Needs
    /// `audit:read`.
    package func auditExport(_ filter: AuditFilter, by actor: ConsoleOperator) async throws -> AuditExport {
        try await requireRead(.auditRead, by: actor)
        return AuditExport(store: store, filter: filter)
    }

    /// The chain walked from its first entry, against the checkpoint the server last wrote.
    /// Needs `audit:read`.
    package func auditChain(by actor: ConsoleOperator) async throws -> AuditChainStatus {
        try await requireRead(.auditRead, by: actor)
        return try await checkpoints.checkAgainstLastWritten(configuration.auditCheckpointFile)
    }
}
