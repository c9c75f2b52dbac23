import ArgumentParser
import Foundation
import Logging
import SCACore
import SCAServer

/// `sca-server user …`: the admin CLI, working directly on the server's database.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage users on the server's database.",
        subcommands: [Add.self, List.self, SetPassword.self, SetPIN.self, EnrollTOTP.self, Unblock.self, SetRoles.self, Export.self])

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
