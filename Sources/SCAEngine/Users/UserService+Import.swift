import Foundation
import SCACore
import SCAStorage

extension UserService {
    /// Refusals reported before an import gives up listing them.
    static let importRefusalsShown = 100

    /// Imports the users of a JSON-lines file (``UserImportLine``) from the system being
    /// replaced. Every line is checked first (its form, its e-mail and phone, its hash, an
    /// e-mail twice in the file or already a user's): one bad line and nothing is imported.
    /// Then each user is created with the imported hash as it is; the first successful login
    /// checks it and stores the server's own hash instead, so nobody needs a password reset.
    /// Each creation is audited (`admin.user_created`, `source: import`).
    package func importUsers(fromFile path: String) async throws -> UserImportReport {
        var refusals: [UserImportReport.Refusal] = []
        var refusedLines = 0
        var emails: [String: Int] = [:]
        var lines = 0
        try await TextLines(path: path).forEach { number, text in
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            lines += 1
            do {
                let line = try UserImportLine(json: text)
                do {
                    try Self.validate(email: line.email, password: nil, pin: nil, phone: line.phone)
                } catch let problem as Problem {
                    throw UserImportError(problem.detail ?? problem.title)
                }
                if let earlier = emails[line.email] { throw UserImportError("the same e-mail as line \(earlier)") }
                emails[line.email] = number
                if try await store.user(email: line.email) != nil { throw UserImportError("a user with this e-mail exists") }
            } catch let error as UserImportError {
                refusedLines += 1
                if refusals.count < Self.importRefusalsShown {
                    refusals.append(.init(line: number, reason: error.description))
                }
            }
        }
        guard refusedLines == 0 else {
            return UserImportReport(lines: lines, imported: 0, refusedLines: refusedLines, refusals: refusals)
        }
        var imported = 0
        try await TextLines(path: path).forEach { number, text in
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            let line = try UserImportLine(json: text)
            let user = UserRecord(
                id: runtime.makeID(prefix: "usr"), email: line.email, phone: line.phone, passwordHash: line.passwordHash,
                sealedTOTPSeed: try line.totpSeed.map { try box.seal($0, context: Self.totpSealingContext) },
                emailOTPEnabled: line.emailCodes, createdAt: runtime.now())
            do {
                try await store.createUser(user)
            } catch StoreError.conflict {
                // Created meanwhile (the checks ran before): the users before this line stay.
                throw UserImportError("line \(number): a user with this e-mail was created during the import; \(imported) users were imported before it")
            }
            imported += 1
            var methods: [String] = []
            if line.passwordHash != nil { methods.append("password") }
            if line.phone != nil { methods.append("sms_otp") }
            if line.totpSeed != nil { methods.append("totp") }
            if line.emailCodes { methods.append("email_otp") }
            await audit.record(
                .adminUserCreated, userID: user.id, details: ["methods": methods.joined(separator: ","), "source": "import"])
        }
        return UserImportReport(lines: lines, imported: imported, refusedLines: 0, refusals: [])
    }
}
