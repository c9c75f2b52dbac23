import ArgumentParser
import Foundation
import SCAClient
import SCACore

/// `sca approve`: the operations a bank's backend asked this device to approve,
/// shown plainly, each approved with the device key and biometry, or refused with a reason.
struct Approve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Approve or refuse operations waiting for this device (payments, sign-ins, settings changes).",
        discussion: """
            Each operation is shown in full (amount, payee, IBAN, message), then asked: y approve, n not me, \
            w wrong amount, o other reason, s skip.
            --watch keeps one request open to the server and shows operations as they arrive (Ctrl-C to stop).
            Scripts: sca approve --answer y --biometric approve
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Wait for new operations instead of ending when none is left.")
    var watch = false

    @Option(help: ArgumentHelp("Answer every operation without asking: y, n, w, o or s.", valueName: "answer"))
    var answer: String?

    @Option(help: ArgumentHelp("Answer the biometric prompt: ask, approve or cancel.", valueName: "answer"))
    var biometric: BiometricAnswer = .ask

    /// How long the server holds a `--watch` request open, in seconds.
    static let watchWait = 25
    static let waiting = "Waiting for requests… (Ctrl-C to stop)"

    func validate() throws {
        if let answer, Choice(answer) == nil { throw ValidationError("--answer must be y, n, w, o or s") }
    }

    /// What the user answered for one operation.
    enum Choice: Equatable {
        case approve
        case reject(OperationRejectReason)
        case skip

        init?(_ text: String) {
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "y", "yes": self = .approve
            case "n", "no", "not me": self = .reject(.notMe)
            case "w": self = .reject(.wrongAmount)
            case "o": self = .reject(.other)
            case "s", "": self = .skip
            default: return nil
            }
        }
    }

    func run() async throws {
        let app = try await AppState.open(global)
        let spinner = Spinner()
        let collector = TerminalCollector(
            answers: TerminalCollector.Answers(method: nil, code: nil, password: nil, biometric: biometric, confirm: false),
            spinner: spinner)
        var handled: Set<String> = []
        // A watch says it is waiting, and says so again after each request it handled, so the
        // screen never looks stuck.
        if watch { Terminal.say(Self.waiting) }
        repeat {
            let pending = try await app.client.pendingOperations(wait: watch ? Self.watchWait : 0)
                .filter { !handled.contains($0.operationId) }
            if pending.isEmpty {
                if !watch { print("no operations waiting") }
                continue
            }
            for operation in pending {
                handled.insert(operation.operationId)
                try await handle(operation, client: app.client, collector: collector, spinner: spinner)
            }
            if watch { Terminal.say(Self.waiting) }
        } while watch
    }

    private func handle(
        _ operation: PendingOperation, client: SCAClient, collector: TerminalCollector, spinner: Spinner
    ) async throws {
        for line in Self.describe(operation) { Terminal.say(line) }
        let choice: Choice
        if let answer, let given = Choice(answer) {
            choice = given
        } else {
            guard let line = Terminal.ask("Approve? y yes / n not me / w wrong amount / o other / s skip: ") else {
                throw AppError.inputClosed("the answer")
            }
            guard let typed = Choice(line) else {
                Terminal.say("Not an answer: skipped.")
                return
            }
            choice = typed
        }
        let outcome: String
        do {
            switch choice {
            case .approve:
                let decision = try await client.approve(operation, using: collector)
                outcome = "\(decision.status.rawValue): \(operation.operationId)"
            case .reject(let reason):
                let decision = try await client.reject(operation, reason: reason)
                outcome = "\(decision.status.rawValue) (\(reason.rawValue)): \(operation.operationId)"
            case .skip:
                outcome = "skipped: \(operation.operationId)"
            }
        } catch let error as SCAClientError where error.code == .cancelled {
            outcome = "not approved (biometry cancelled): \(operation.operationId)"
        } catch let error as SCAClientError where error.code == .server && watch {
            // One refused answer does not end the watch.
            outcome = "refused: \(operation.operationId): \(error.problemCode?.rawValue ?? "")"
        }
        // The signature's spinner ends before its outcome is printed, whatever the outcome.
        await spinner.stop()
        print(outcome)
    }

    /// The operation as the user must read it before approving: every field plainly.
    static func describe(_ operation: PendingOperation) -> [String] {
        var lines = ["Operation \(operation.operationId): \(operation.operation.rawValue)"]
        if let transaction = operation.transaction {
            lines.append("  Pay \(transaction.amount) \(transaction.currency) to \(Terminal.shown(transaction.payee.name))")
            if let iban = transaction.payee.iban { lines.append("  IBAN \(OperationWording.groupedIBAN(iban))") }
            if let reference = transaction.reference { lines.append("  Reference \(Terminal.shown(reference))") }
        }
        if let message = operation.bindingMessage { lines.append("  Message: \(Terminal.shown(message))") }
        lines.append("  Expires \(ISO8601DateFormatter().string(from: operation.expiresAt))")
        return lines
    }
}
