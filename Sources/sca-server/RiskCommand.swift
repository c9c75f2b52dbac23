import ArgumentParser
import Foundation
import SCACore
import SCAServer

/// `sca-server risk …`: fraud reports and the fraud-rate report (RTS art. 19–21).
struct RiskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "risk", abstract: "Report fraud and print the fraud rates and the exemptions in force.",
        subcommands: [Report.self, ReportFraud.self])

    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a quarter's fraud rates per type and TRA band, and the exemptions in force with why.")
        @OptionGroup var common: CommonOptions
        @Option(help: ArgumentHelp("The quarter, e.g. 2026Q4 (default: the current one, UTC).", valueName: "quarter"))
        var quarter: String?

        func run() async throws {
            var chosen: Quarter?
            if let quarter {
                guard let parsed = Quarter(quarter) else { throw ValidationError("--quarter must look like 2026Q4") }
                chosen = parsed
            }
            try await withServices(common) { services in
                let report = try await services.risk.report(quarter: chosen ?? Quarter.containing(services.runtime.now()))
                print(report.renderedText)
            }
        }
    }

    struct ReportFraud: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report-fraud", abstract: "Record a payment found fraudulent or unauthorised (audited).")
        @OptionGroup var common: CommonOptions
        @Option(help: ArgumentHelp("The payment's txn (transaction digest), when this server authorised it.", valueName: "txn"))
        var txn: String?
        @Option(help: ArgumentHelp("Amount with the currency's decimals, e.g. 25.00.", valueName: "amount"))
        var amount: String
        @Option(help: ArgumentHelp("ISO 4217 code, e.g. EUR.", valueName: "code"))
        var currency: String
        @Option(help: ArgumentHelp("credit_transfer or card.", valueName: "type"))
        var type: String = PaymentType.creditTransfer.rawValue

        func run() async throws {
            guard let paymentType = PaymentType(rawValue: type) else { throw ValidationError("--type must be credit_transfer or card") }
            try await withServices(common) { services in
                let response = try await services.risk.reportFraud(
                    FraudReportRequest(txn: txn, amount: amount, currency: currency.uppercased(), type: paymentType))
                print("\(response.reportId) counted in \(response.quarter)\(response.matchedPayment ? " (matched payment)" : "")")
            }
        }
    }
}
