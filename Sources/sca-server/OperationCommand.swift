import ArgumentParser
import Foundation
import SCACore
import SCAServer

/// `sca-server operation …`: ask a user's phone to approve an operation from a terminal,
/// on the server's database; the running server's phone side sees it at once.
struct OperationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operation", abstract: "Ask a user's phone to approve an operation, and read the answer.",
        subcommands: [Create.self, Show.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an operation for the user's phone (a payment when --amount is given, otherwise a login).",
            discussion: "Example: sca-server operation create --email alice@example.com --amount 125.00 --payee \"ACME SAS\" --iban FR76...")
        @OptionGroup var common: CommonOptions
        @Option(help: "The user's e-mail.") var email: String
        @Option(help: "login, payment or settings_change (default: payment with --amount, login otherwise).") var kind: String?
        @Option(help: "Amount with the currency's decimals, e.g. 125.00.") var amount: String?
        @Option(help: "ISO 4217 code.") var currency = "EUR"
        @Option(help: "Who is paid.") var payee: String?
        @Option(help: "The payee's IBAN.") var iban: String?
        @Option(help: "A message shown on the phone (up to 64 characters).") var message: String?
        @Option(help: "Seconds until it expires (1 to 900).") var expiresIn: Int?

        func run() async throws {
            let operation: OperationKind
            if let kind {
                guard let parsed = OperationKind(rawValue: kind) else { throw ValidationError("unknown kind '\(kind)'") }
                operation = parsed
            } else {
                operation = amount == nil ? .login : .payment
            }
            var transaction: Transaction?
            if operation == .payment {
                guard let amount, let payee else { throw ValidationError("a payment needs --amount and --payee") }
                transaction = Transaction(amount: amount, currency: currency.uppercased(), payee: .init(name: payee, iban: iban))
            }
            try await withServices(common) { services in
                let created = try await services.createOperation(
                    CreateOperationRequest(
                        user: UserReference(email: email), operation: operation, transaction: transaction,
                        bindingMessage: message, expiresIn: expiresIn))
                print("operation: \(created.operationId) \(created.status.rawValue) until \(ISO8601DateFormatter().string(from: created.expiresAt))")
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show an operation's status (and its token once approved).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The operation id (op_…).") var id: String

        func run() async throws {
            try await withServices(common) { services in
                let operation = try await services.operation(id: id)
                var line = "\(operation.operationId) \(operation.status.rawValue)"
                if let reason = operation.rejectReason { line += " (\(reason.rawValue))" }
                print(line)
                if let token = operation.accessToken { print("access_token: \(token)") }
            }
        }
    }
}
