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

    func validate() throws {
        if let answer, Choice(answer) == nil { throw ValidationError(Terminal.words.text("terminal.failure.answerFlag")) }
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
        let waiting = Terminal.words.text("terminal.approve.waiting")
        if watch { Terminal.say(waiting) }
        repeat {
            let pending = try await app.client.pendingOperations(wait: watch ? Self.watchWait : 0)
                .filter { !handled.contains($0.operationId) }
            if pending.isEmpty {
                if !watch { print(Terminal.words.text("terminal.approve.none")) }
                continue
            }
            for operation in pending {
                handled.insert(operation.operationId)
                try await handle(operation, client: app.client, collector: collector, spinner: spinner)
            }
            if watch { Terminal.say(waiting) }
        } while watch
    }

    private func handle(
        _ operation: PendingOperation, client: SCAClient, collector: TerminalCollector, spinner: Spinner
    ) async throws {
        let words = Terminal.words
        for line in Self.describe(operation) { Terminal.say(line) }
        let choice: Choice
        if let answer, let given = Choice(answer) {
            choice = given
        } else {
            guard let line = Terminal.ask(words.text("terminal.approve.prompt")) else {
                throw AppError.inputClosed(.answer)
            }
            guard let typed = Choice(line) else {
                Terminal.say(words.text("terminal.approve.notAnAnswer"))
                return
            }
            choice = typed
        }
        let id = ["operation": operation.operationId]
        let outcome: String
        do {
            switch choice {
            case .approve:
                let decision = try await client.approve(operation, using: collector)
                outcome = Self.outcome(decision.status, of: operation, reason: nil)
            case .reject(let reason):
                let decision = try await client.reject(operation, reason: reason)
                outcome = Self.outcome(decision.status, of: operation, reason: reason)
            case .skip:
                outcome = words.text("terminal.approve.skipped", id)
            }
        } catch let error as SCAClientError where error.code == .cancelled {
            outcome = words.text("terminal.approve.biometryCancelled", id)
        } catch let error as SCAClientError where error.code == .server && watch {
            // One refused answer does not end the watch.
            outcome = words.text(
                "terminal.approve.refused", ["operation": operation.operationId, "code": error.problemCode?.rawValue ?? ""])
        }
        // The signature's spinner ends before its outcome is printed, whatever the outcome.
        await spinner.stop()
        print(outcome)
    }

    /// What the server answered, as the result line on standard output. The reason given is
    /// its wire name (`not_me`), which the bank's backend sees too.
    static func outcome(_ status: OperationStatus, of operation: PendingOperation, reason: OperationRejectReason?) -> String {
        let words = Terminal.words
        switch status {
        case .approved:
            return words.text("terminal.approve.approved", ["operation": operation.operationId])
        case .rejected:
            return words.text(
                "terminal.approve.rejected", ["operation": operation.operationId, "reason": reason?.rawValue ?? ""])
        default:
            return words.text("terminal.approve.notApproved", ["operation": operation.operationId, "status": status.rawValue])
        }
    }

    /// The operation as the user must read it before approving: every field plainly, the amount
    /// digit for digit as the language writes it, the whole IBAN in groups of four.
    static func describe(_ operation: PendingOperation) -> [String] {
        let words = Terminal.words
        let kind = words.text("terminal.operation.kind.\(operation.operation.rawValue)")
        var lines = [words.text("terminal.operation.header", ["operation": operation.operationId, "kind": kind])]
        if let transaction = operation.transaction {
            // Escaped before it is formatted: the language's own no-break spaces are not a trick to show.
            let amount = words.amount(Terminal.shown(transaction.amount), currency: Terminal.shown(transaction.currency))
            lines.append(
                "  " + words.text("terminal.operation.payment", ["amount": amount, "payee": Terminal.shown(transaction.payee.name)]))
            if let iban = transaction.payee.iban { lines.append("  " + words.text("terminal.operation.iban", ["iban": words.iban(iban)])) }
            if let reference = transaction.reference {
                lines.append("  " + words.text("terminal.operation.reference", ["reference": Terminal.shown(reference)]))
            }
        }
        if let message = operation.bindingMessage {
            lines.append("  " + words.text("terminal.operation.message", ["message": Terminal.shown(message)]))
        }
        lines.append("  " + words.text("terminal.operation.expires", ["time": words.dateTime(operation.expiresAt)]))
        return lines
    }
}
