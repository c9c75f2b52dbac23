import Foundation
import SCACore

/// One line of `sca-server user import`: a user from the system being replaced, as JSON.
///
/// ```json
/// {"email": "anna@example.com", "phone": "+41791234567", "totpSeed": "JBSWY3DPEHPK3PXP",
///  "passwordHash": "$2b$12$…", "emailCodes": true}
/// ```
///
/// `passwordHash` is a bcrypt (`$2a$`, `$2b$`, `$2y$`), argon2id (`$argon2id$v=19$…`) or
/// PBKDF2-SHA256 (`$pbkdf2-sha256$i=…$salt$hash`) string; a Keycloak export's credential goes
/// in `keycloakCredential` instead, as Keycloak stores it (`algorithm`, `hashIterations`,
/// `salt`, `value`). Every other key is refused, so a misspelt key never imports a user
/// without the password it was meant to carry.
package struct UserImportLine: Sendable, Equatable {
    package var email: String
    package var phone: String?
    /// The authenticator app's seed, base32 as in an `otpauth://` URI.
    package var totpSeed: [UInt8]?
    /// The stored form of the imported password hash, checked as it is at the first login.
    package var passwordHash: String?
    package var emailCodes: Bool

    static let keys: Set<String> = ["email", "phone", "totpSeed", "passwordHash", "keycloakCredential", "emailCodes"]

    /// Reads and checks one line.
    /// - Throws: ``UserImportError`` saying what is wrong, never echoing a hash or a seed.
    package init(json line: String) throws {
        guard case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)) else {
            throw UserImportError("not a JSON object")
        }
        if let unknown = Set(members.keys).subtracting(Self.keys).sorted().first {
            throw UserImportError("unknown key \"\(unknown)\" (known: \(Self.keys.sorted().joined(separator: ", ")))")
        }
        guard case .string(let email)? = members["email"] else { throw UserImportError("email is required, as a string") }
        self.email = InputRules.normalizedEmail(email)
        phone = try Self.optionalString(members["phone"], "phone")
        emailCodes = try Self.optionalBool(members["emailCodes"], "emailCodes") ?? true
        if let seed = try Self.optionalString(members["totpSeed"], "totpSeed") {
            guard let bytes = Base32.decode(seed), (10...64).contains(bytes.count) else {
                throw UserImportError("totpSeed must be base32 of 10 to 64 bytes")
            }
            totpSeed = bytes
        }
        let hash = try Self.optionalString(members["passwordHash"], "passwordHash")
        let keycloak = members["keycloakCredential"]
        switch (hash, keycloak) {
        case (nil, nil), (nil, .null?):
            passwordHash = nil
        case (let hash?, nil), (let hash?, .null?):
            do {
                passwordHash = try ImportedPasswordHash(hash).encoded
            } catch {
                throw UserImportError("passwordHash: \(error)")
            }
        case (nil, .object(let credential)?):
            passwordHash = try Self.keycloak(credential)
        case (_?, _?):
            throw UserImportError("passwordHash and keycloakCredential exclude each other")
        case (nil, _?):
            throw UserImportError("keycloakCredential must be an object")
        }
    }

    private static func keycloak(_ credential: [String: JSONValue]) throws -> String {
        guard case .string(let algorithm)? = credential["algorithm"], case .number(let iterations)? = credential["hashIterations"],
            case .string(let salt)? = credential["salt"], case .string(let value)? = credential["value"],
            iterations == iterations.rounded(), abs(iterations) < 1e9
        else {
            throw UserImportError("keycloakCredential needs algorithm, hashIterations, salt and value")
        }
        do {
            return try ImportedPasswordHash.keycloakPBKDF2(
                algorithm: algorithm, iterations: Int(iterations), salt: salt, value: value)
        } catch {
            throw UserImportError("keycloakCredential: \(error)")
        }
    }

    private static func optionalString(_ value: JSONValue?, _ key: String) throws -> String? {
        switch value {
        case nil, .null?: nil
        case .string(let text)?: text
        default: throw UserImportError("\(key) must be a string")
        }
    }

    private static func optionalBool(_ value: JSONValue?, _ key: String) throws -> Bool? {
        switch value {
        case nil, .null?: nil
        case .bool(let flag)?: flag
        default: throw UserImportError("\(key) must be true or false")
        }
    }
}
