import Foundation
import SCACore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `sca approve` run as a process against a live server: it shows each operation
/// plainly, approves with the biometric gate or rejects, and reports.
@Suite("Terminal app: sca approve", .serialized)
struct TerminalApproveTests {
    static let adminKey = "approve-admin-key-0123456789"
    static let iban = "FR7630006000011234567890189"

    static func backend(_ url: URL, _ method: String, _ path: String, body: (any Encodable)? = nil) async throws -> (Int, Data) {
        var request = URLRequest(url: url.appendingPathComponent(path))
        request.httpMethod = method
        request.setValue("Bearer \(adminKey)", forHTTPHeaderField: "Authorization")
        if let body {
            request.httpBody = try WireJSON.encoder().encode(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    static func createPayment(_ url: URL, userID: String) async throws -> String {
        let request = CreateOperationRequest(
            user: UserReference(userId: userID), operation: .payment,
            transaction: Transaction(amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: iban)),
            bindingMessage: "Order 42")
        let (status, data) = try await backend(url, "POST", "v1/operations", body: request)
        #expect(status == 201)
        return try WireJSON.decoder().decode(OperationResponse.self, from: data).operationId
    }

    static func status(_ url: URL, _ id: String) async throws -> OperationResponse {
        try WireJSON.decoder().decode(OperationResponse.self, from: try await backend(url, "GET", "v1/operations/\(id)").1)
    }

    /// A live server, a user, and an `sca` home whose device is activated for that user.
    static func withActivatedDevice(
        _ email: String, _ body: @escaping @Sendable (_ url: URL, _ userID: String, _ home: URL) async throws -> Void
    ) async throws {
        let server = try await LiveServer { $0.adminKey = Self.adminKey }
        let user = try await server.services.users.create(CreateUserRequest(email: email, password: "correct horse battery"))
        let activation = try await server.services.devices.issueActivationCode(for: user.id).activationCode
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        try await server.run { url in
            let activate = try await TerminalAppProcess.run(["activate", activation, "--server", url.absoluteString], home: home)
            #expect(activate.status == 0, activate.diagnostics)
            try await body(url, user.id, home)
        }
    }

    @Test("lists an operation plainly, approves it behind biometry, rejects the next as not me")
    func approveAndReject() async throws {
        try await Self.withActivatedDevice("phone@example.com") { url, userID, home in
            let none = try await TerminalAppProcess.run(["approve"], home: home)
            #expect(none.status == 0, none.diagnostics)
            #expect(none.lines == ["no operations waiting"], none.diagnostics)

            let first = try await Self.createPayment(url, userID: userID)
            let approve = try await TerminalAppProcess.run(["approve", "--biometric", "approve"], input: "y\n", home: home)
            #expect(approve.status == 0, approve.diagnostics)
            #expect(approve.lines == ["approved: \(first)"], approve.diagnostics)
            for shown in ["Pay €125.00 to ACME SAS", "IBAN FR76 3000 6000 0112 3456 7890 189", "Message: Order 42"] {
                #expect(approve.stderr.contains(shown), approve.diagnostics)
            }
            let approved = try await Self.status(url, first)
            #expect(approved.status == .approved)
            #expect(approved.accessToken != nil)

            let second = try await Self.createPayment(url, userID: userID)
            let reject = try await TerminalAppProcess.run(["approve"], input: "n\n", home: home)
            #expect(reject.status == 0, reject.diagnostics)
            #expect(reject.lines == ["rejected (not_me): \(second)"], reject.diagnostics)
            #expect(try await Self.status(url, second).rejectReason == .notMe)

            // Biometry cancelled: nothing approved, the operation still waits.
            let third = try await Self.createPayment(url, userID: userID)
            let cancelled = try await TerminalAppProcess.run(["approve", "--answer", "y", "--biometric", "cancel"], home: home)
            #expect(cancelled.lines == ["not approved (biometry cancelled): \(third)"], cancelled.diagnostics)
            #expect(try await Self.status(url, third).status == .pending)
        }
    }

    @Test("--watch says it is waiting, shows a request as it comes, approves it, and says it is waiting again")
    func watchSaysWhatItDoes() async throws {
        try await Self.withActivatedDevice("watch@example.com") { url, userID, home in
            let id = try await Self.createPayment(url, userID: userID)
            @Sendable func count(_ text: String, in printed: String) -> Int { printed.components(separatedBy: text).count - 1 }
            // Answered at the prompt; then the run ends at its time limit, still watching.
            let watched = try await TerminalAppProcess.interact(
                ["approve", "--watch", "--biometric", "approve"], home: home,
                replies: [
                    TerminalAppProcess.Reply(ready: { $0.contains("Approve? y yes") }, line: { "y" }),
                    TerminalAppProcess.Reply(ready: { count("Waiting for requests… (Ctrl-C to stop)", in: $0) >= 2 }, line: { "" }),
                ],
                timeout: .seconds(8))
            #expect(watched.stderr.hasPrefix("Waiting for requests… (Ctrl-C to stop)\n"), watched.diagnostics)
            #expect(watched.stderr.contains("Pay €125.00 to ACME SAS"), watched.diagnostics)
            #expect(count("Waiting for requests… (Ctrl-C to stop)", in: watched.stderr) == 2, watched.diagnostics)
            #expect(try await Self.status(url, id).status == .approved)
        }
    }

    @Test("the two-terminal walkthrough: sca-server operation create, sca approve, sca-server operation show")
    func twoTerminals() async throws {
        let server = try await LiveServer { $0.adminKey = Self.adminKey }
        let user = try await server.services.users.create(CreateUserRequest(email: "two@example.com", password: "correct horse battery"))
        let activation = try await server.services.devices.issueActivationCode(for: user.id).activationCode
        let home = try TerminalAppProcess.temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["SCA_DATA_DIR": server.services.configuration.dataDirectory]

        try await server.run { url in
            let activate = try await TerminalAppProcess.run(["activate", activation, "--server", url.absoluteString], home: home)
            #expect(activate.status == 0, activate.diagnostics)
            let created = try await AdminCommand.run(
                ["operation", "create", "--email", "two@example.com", "--amount", "125.00", "--payee", "ACME SAS",
                 "--iban", Self.iban, "--message", "Order 42"],
                environment: environment)
            #expect(created.status == 0, "\(created.errors)")
            let id = try #require(created.output.split(separator: " ").dropFirst().first.map(String.init))
            #expect(created.output.hasPrefix("operation: op_") && created.output.contains(" pending until "))

            let approve = try await TerminalAppProcess.run(["approve", "--answer", "y", "--biometric", "approve"], home: home)
            #expect(approve.lines == ["approved: \(id)"], approve.diagnostics)

            let shown = try await AdminCommand.run(["operation", "show", id], environment: environment)
            #expect(shown.status == 0, "\(shown.errors)")
            #expect(shown.output.hasPrefix("\(id) approved\naccess_token: ey"), "\(shown.output)")
            let refused = try await AdminCommand.run(
                ["operation", "create", "--email", "two@example.com", "--amount", "1.00", "--payee", "X", "--message", "bad\u{7}"],
                environment: environment)
            #expect(refused.status != 0)
            #expect(refused.errors.contains("bindingMessage"), "\(refused.errors)")
        }
    }
}
