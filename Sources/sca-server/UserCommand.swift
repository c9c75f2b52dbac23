import ArgumentParser
import Foundation
import Logging
import SCACore
import SCAEngine
import SCAServer

/// `sca-server user …`: the admin CLI, working directly on the server's database.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage users on the server's database.",
        subcommands: [Add.self, List.self, SetPassword.self, SetPIN.self, EnrollTOTP.self, Unblock.self, SetRoles.self, Export.self, Erase.self, Import.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a user.")
        @OptionGroup var common: CommonOptions
        @Option(help: "E-mail address (the login name).") var email: String
        @Option(help: "Password (prefer --password-stdin: flags show in the process list).") var password: String?
        @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false
        @Option(help: "PIN (4 to 12 digits).") var pin: String?
        @Option(help: "Phone number in E.164 form, enables SMS codes.") var phone: String?
        @Option(help: "A role; repeat for several.") var role: [String] = []
        @Flag(help: "Do not send one-time codes by e-mail.") var noEmailCodes = false

        func run() async throws {
            try await withServices(common) { services in
                let secret = try readSecret(password, fromStdin: passwordStdin)
                let user = try await services.users.create(CreateUserRequest(
                    email: email, password: secret, pin: pin, phone: phone, roles: role.isEmpty ? nil : role,
                    emailCodes: !noEmailCodes))
                print(user.id)
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print everything stored about a user as JSON, without a secret (GDPR art. 15 and 20).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "User id or e-mail.") var user: String

        func run() async throws {
            try await withServices(common) { services in
                let export = try await services.users.export(userID: try await resolve(user, in: services))
                print(String(decoding: try WireJSON.encoder().encode(export), as: UTF8.self))
            }
        }
    }

    struct Erase: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Erase a user (GDPR art. 17): their data goes, their audit entries keep no personal fact.",
            discussion: """
                Sessions end (partners are told), then the user and everything hanging off them are deleted \
                in one transaction. Payments stay for the fraud-rate figures without payer, address, device \
                or IBAN; audit entries keep the opaque user id, event, time and outcome. Prints what was \
                removed as JSON. Take `user export` first if the person asked for their data too.
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "User id or e-mail.") var user: String
        @Flag(help: "Confirm: the erasure cannot be undone.") var yes = false

        func validate() throws {
            guard yes else { throw ValidationError("erasing a user cannot be undone: add --yes") }
        }

        func run() async throws {
            try await withServices(common) { services in
                let summary = try await services.users.erase(userID: try await resolve(user, in: services))
                print(String(decoding: try WireJSON.encoder().encode(summary), as: UTF8.self))
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import users from JSON lines, with the password hashes of the system being replaced.",
            discussion: """
                One user a line: {"email": …, "phone": …, "totpSeed": BASE32, "passwordHash": …, "emailCodes": …}, \
                the hash a bcrypt ($2a$, $2b$, $2y$), argon2id ($argon2id$v=19$…) or PBKDF2-SHA256 \
                ($pbkdf2-sha256$i=…$salt$hash) string, or a Keycloak credential as \
                "keycloakCredential": {"algorithm", "hashIterations", "salt", "value"}. Every line is \
                checked first: one bad line (reported with its number) and nothing is imported. An \
                imported hash is checked as it is at the user's first login, then replaced by the \
                server's own. See docs/operations.md, Migrating users in.
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The JSON-lines file.") var file: String

        func run() async throws {
            var outcome: UserImportReport?
            var seconds = 0.0
            try await withServices(common) { services in
                let started = ContinuousClock.now
                outcome = try await services.users.importUsers(fromFile: file)
                seconds = (ContinuousClock.now - started) / .seconds(1)
            }
            guard let report = outcome else { return }
            guard report.refusedLines == 0 else {
                for refusal in report.refusals {
                    FileHandle.standardError.write(Data("line \(refusal.line): \(refusal.reason)\n".utf8))
                }
                if report.refusedLines > report.refusals.count {
                    FileHandle.standardError.write(Data("… and \(report.refusedLines - report.refusals.count) more lines\n".utf8))
                }
                FileHandle.standardError.write(Data("nothing imported: \(report.refusedLines) of \(report.lines) lines refused\n".utf8))
                throw ExitCode(2)
            }
            let rate = seconds > 0 ? Int(Double(report.imported) / seconds) : report.imported
            print("imported \(report.imported) users in \(String(format: "%.1f", seconds)) s (\(rate) users/s)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List users with their methods and lock state.")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withServices(common) { services in
                for user in try await services.users.list() {
                    let view = try await services.users.describe(user)
                    print("\(view.userId)  \(view.email)  [\(view.methods.map(\.rawValue).joined(separator: ","))]  lock: \(view.lock.state)")
                }
            }
        }
    }

    struct SetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set-password", abstract: "Set a user's password.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "User id or e-mail.") var user: String
        @Option var password: String?
        @Flag(help: "Read the password from standard input.") var passwordStdin = false

        func run() async throws {
            try await withServices(common) { services in
                let id = try await resolve(user, in: services)
                try await services.users.update(userID: id, UpdateUserRequest(password: try readSecret(password, fromStdin: passwordStdin)))
                print("password set for \(id)")
            }
        }
    }

    struct SetPIN: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set-pin", abstract: "Set a user's PIN.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "User id or e-mail.") var user: String
        @Option var pin: String?
        @Flag(help: "Read the PIN from standard input.") var pinStdin = false

        func run() async throws {
            try await withServices(common) { services in
                let id = try await resolve(user, in: services)
                try await services.users.update(userID: id, UpdateUserRequest(pin: try readSecret(pin, fromStdin: pinStdin)))
                print("PIN set for \(id)")
            }
        }
    }

    struct EnrollTOTP: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enroll-totp", abstract: "Give a user a new authenticator seed and print its otpauth URI.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "User id or e-mail.") var user: String

        func run() async throws {
            try await withServices(common) { services in
                let enrollment = try await services.users.enrollTOTP(userID: try await resolve(user, in: services))
                print(enrollment.otpauthUri)
            }
        }
    }

    struct Unblock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lift a user's temporary or permanent block.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "User id or e-mail.") var user: String

        func run() async throws {
            try await withServices(common) { services in
                let id = try await resolve(user, in: services)
                try await services.users.unblock(userID: id)
                print("unblocked \(id)")
            }
        }
    }
}

extension UserCommand {
    /// Roles: they show in the user's next token, a refresh included.
    struct SetRoles: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-roles", abstract: "Replace a user's roles (none given: no roles).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "User id or e-mail.") var user: String
        @Option(help: "A role; repeat for several.") var role: [String] = []

        func run() async throws {
            try await withServices(common) { services in
                let id = try await resolve(user, in: services)
                let updated = try await services.users.setRoles(userID: id, role)
                print("roles of \(id): \(updated.roles.isEmpty ? "none" : updated.roles.joined(separator: ", "))")
            }
        }
    }
}

/// Opens the server's database and services for one admin command, its PostgreSQL pool
/// running while `body` runs and closed afterwards, whether `body` succeeds or throws.
func withServices(_ common: CommonOptions, _ body: (SCAServices) async throws -> Void) async throws {
    // Warnings and errors only: the command's own output is what the operator reads.
    var logger = Logger(label: "sca-server")
    logger.logLevel = .warning
    let configuration = try common.load()
    do {
        try await SCAServices.withServices(configuration: configuration, logger: logger) { services in
            do {
                try await body(services)
            } catch {
                throw CommandError(error: error)
            }
        }
    } catch let failure as CommandError {
        throw failure.error
    } catch let problem as Problem {
        // Opening failed: say why in the operator's terms.
        throw ValidationError(problem.detail ?? problem.title)
    }
}

/// The command's own error, passed through unchanged (only an opening failure is rephrased).
private struct CommandError: Error {
    let error: any Error
}

func resolve(_ user: String, in services: SCAServices) async throws -> String {
    guard let record = try await services.users.find(user) else { throw ValidationError("no such user: \(user)") }
    return record.id
}

/// A secret from its flag, or from the first line of standard input.
private func readSecret(_ flag: String?, fromStdin: Bool) throws -> String? {
    guard fromStdin else { return flag }
    guard let line = readLine(strippingNewline: true), !line.isEmpty else {
        throw ValidationError("expected the secret on standard input")
    }
    return line
}
