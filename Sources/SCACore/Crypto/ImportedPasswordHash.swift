import Crypto
import CryptoExtras
import Foundation

/// A password hash brought from another system by `sca-server user import`: verified as it
/// is at the user's first login, then replaced by this server's scrypt hash
/// (``PasswordHasher``).
///
/// Three stored forms are read:
/// - bcrypt: `$2b$10$<22 characters of salt><31 characters of hash>`, also `$2a$` and `$2y$`
///   (see ``Bcrypt`` for how the three relate), in bcrypt's own base64 (`./A-Za-z0-9`).
/// - Argon2id, as a PHC string: `$argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>`, salt and hash
///   in standard base64 without padding. Argon2i and Argon2d are refused.
/// - PBKDF2-HMAC-SHA256 as Keycloak stores it: `$pbkdf2-sha256$i=27500$<salt>$<hash>`. This
///   form is passlib's, except that salt and hash are in standard base64 with padding, as
///   Keycloak writes them in its credential JSON; unpadded text is read too. Build it with
///   ``keycloakPBKDF2(algorithm:iterations:salt:value:)``.
///
/// Each cost is bounded (``Limits``) so that an imported line cannot make one login take
/// more than a few seconds or more than 1 GiB of memory.
package enum ImportedPasswordHash: Sendable, Equatable {
    /// `variant` is the `2a`, `2b` or `2y` of the string: all three are verified alike.
    case bcrypt(variant: String, cost: Int, salt: [UInt8], hash: [UInt8])
    case argon2id(memoryKiB: Int, iterations: Int, parallelism: Int, salt: [UInt8], hash: [UInt8])
    case pbkdf2SHA256(iterations: Int, salt: [UInt8], hash: [UInt8])

    /// The costs and lengths accepted. Each bound keeps one verification to a few seconds at
    /// most (measured on a 2-core x86-64 machine in a release build: bcrypt cost 12 took 0.35 s,
    /// Argon2id m = 64 MiB, t = 3 took 0.36 s, PBKDF2 at 27 500 iterations 12 ms).
    package enum Limits {
        /// bcrypt's cost: its format allows up to 31, but each step doubles the work, and cost
        /// 31 would take days per login; 16 takes about 6 s.
        package static let bcryptCosts = 4...16
        /// Argon2id's memory, m, in KiB: at most 1 GiB (and at least 8 KiB per lane).
        package static let argon2MaximumMemoryKiB = 1 << 20
        /// Argon2id's passes over memory, t.
        package static let argon2Iterations = 1...16
        /// Argon2id's lanes, p: computed one after the other, so they do not change the work.
        package static let argon2Parallelism = 1...64
        /// m × t in KiB, the memory written over one verification: four passes over 1 GiB.
        package static let argon2MaximumWorkKiB = 4 << 20
        /// PBKDF2's iterations.
        package static let pbkdf2Iterations = 1...10_000_000
        /// Salts of Argon2id and PBKDF2 (bcrypt's are always 16 bytes).
        package static let saltByteCounts = 8...64
        /// Hashes of Argon2id and PBKDF2 (bcrypt's are always 23 bytes).
        package static let hashByteCounts = 16...64
    }

    /// The stored forms read, by the prefix that starts them.
    private static let prefixes = ["$2a$", "$2b$", "$2y$", "$argon2id$", "$pbkdf2-sha256$"]

    /// Whether `stored` is in one of the forms this type reads (judged by its prefix alone):
    /// how the password check tells an imported hash from one of its own scrypt strings.
    package static func isImported(_ stored: String) -> Bool {
        prefixes.contains { stored.hasPrefix($0) }
    }

    /// Reads a stored hash.
    ///
    /// - Throws: The specific reason when `encoded` is not in a form read here or its costs
    ///   are beyond ``Limits``.
    package init(_ encoded: String) throws(ImportedPasswordHashError) {
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count >= 3, fields[0].isEmpty else {
            throw .malformed("expected a string of $-separated fields starting with $")
        }
        let scheme = fields[1]
        guard (1...32).contains(scheme.count), scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { throw .malformed("no algorithm name between the first two $") }
        switch scheme {
        case "2a", "2b", "2y":
            self = try Self.readBcrypt(fields)
        case "argon2id":
            self = try Self.readArgon2id(fields)
        case "pbkdf2-sha256":
            self = try Self.readPBKDF2SHA256(fields)
        default:
            throw .unsupportedAlgorithm(String(scheme))
        }
    }

    /// The hash written in the stored form, as ``init(_:)`` reads it.
    package var encoded: String {
        switch self {
        case .bcrypt(let variant, let cost, let salt, let hash):
            let paddedCost = cost < 10 ? "0\(cost)" : "\(cost)"
            return "$\(variant)$\(paddedCost)$" + Bcrypt.encode(salt) + Bcrypt.encode(hash)
        case .argon2id(let memoryKiB, let iterations, let parallelism, let salt, let hash):
            return "$argon2id$v=19$m=\(memoryKiB),t=\(iterations),p=\(parallelism)$"
                + Base64Codec.standard.encode(salt) + "$" + Base64Codec.standard.encode(hash)
        case .pbkdf2SHA256(let iterations, let salt, let hash):
            return "$pbkdf2-sha256$i=\(iterations)$" + Self.padded(Base64Codec.standard.encode(salt)) + "$"
                + Self.padded(Base64Codec.standard.encode(hash))
        }
    }

    /// Whether `password` is the one hashed, compared in constant time.
    ///
    /// The other system hashed the UTF-8 bytes it received, unnormalised, so those bytes are
    /// tried first: the same person on the same kind of device sends them again. When they are
    /// not in Unicode NFC, their NFC form is tried as well: this server's own hashes treat
    /// canonically equivalent spellings as one password, so a password first typed with
    /// composed accents (what most keyboards send) also verifies when it now arrives
    /// decomposed. That second try costs a second hash only for passwords not in NFC.
    package func verify(_ password: String) -> Bool {
        let bytes = Array(password.utf8)
        if matches(bytes) {
            return true
        }
        let normalized = Array(password.precomposedStringWithCanonicalMapping.utf8)
        return normalized != bytes && matches(normalized)
    }

    /// Builds the stored form of a Keycloak PBKDF2 credential from its four values:
    /// `credentialData`'s `algorithm` and `hashIterations`, `secretData`'s `salt` and `value`
    /// (standard base64, padded or not).
    ///
    /// - Throws: ``ImportedPasswordHashError/unsupportedAlgorithm(_:)`` for any algorithm but
    ///   `pbkdf2-sha256` (Keycloak's `pbkdf2` is PBKDF2 with SHA-1), or the reason the
    ///   iterations, salt or value are refused.
    package static func keycloakPBKDF2(
        algorithm: String, iterations: Int, salt: String, value: String
    ) throws(ImportedPasswordHashError) -> String {
        guard algorithm == "pbkdf2-sha256" else { throw .unsupportedAlgorithm(algorithm) }
        let hash = try readPBKDF2SHA256(iterations: iterations, salt: Substring(salt), hash: Substring(value))
        return hash.encoded
    }

    // MARK: - Verification

    /// Whether `password` hashes to the stored hash. A hash built directly from out-of-range
    /// values (not through ``init(_:)``) is false rather than a trap; the limits of ``Limits``
    /// are applied when reading, so that tests can build the published vectors' small salts.
    private func matches(_ password: [UInt8]) -> Bool {
        switch self {
        case .bcrypt(_, let cost, let salt, let hash):
            guard Bcrypt.costs.contains(cost), salt.count == Bcrypt.saltByteCount else { return false }
            // The C implementations read the password up to its first NUL byte, so a password
            // holding one would verify as a shorter one: refused instead, as Python's bcrypt does.
            guard !password.contains(0) else { return false }
            return ConstantTime.equals(Bcrypt.hash(password: password, salt: salt, cost: cost), hash)
        case .argon2id(let memoryKiB, let iterations, let parallelism, let salt, let hash):
            guard parallelism >= 1, iterations >= 1, memoryKiB >= 8 * parallelism, hash.count >= 4 else { return false }
            let computed = Argon2id.hash(
                password: password, salt: salt, memoryKiB: memoryKiB, iterations: iterations,
                parallelism: parallelism, tagByteCount: hash.count)
            return ConstantTime.equals(computed, hash)
        case .pbkdf2SHA256(let iterations, let salt, let hash):
            guard iterations >= 1, !hash.isEmpty,
                let key = try? KDF.Insecure.PBKDF2.deriveKey(
                    from: password, salt: salt, using: .sha256, outputByteCount: hash.count,
                    unsafeUncheckedRounds: iterations)
            else { return false }
            return key.withUnsafeBytes { ConstantTime.equals($0, hash) }
        }
    }

    // MARK: - Reading each form

    /// `$2b$10$` then 22 characters of salt and 31 of hash, nothing between them.
    private static func readBcrypt(_ fields: [Substring]) throws(ImportedPasswordHashError) -> Self {
        guard fields.count == 4 else { throw .malformed("a bcrypt string has the form $2b$<cost>$<salt and hash>") }
        let costText = fields[2]
        guard costText.count == 2, costText.allSatisfy({ $0.isASCII && $0.isNumber }), let cost = Int(costText) else {
            throw .malformed("a bcrypt cost is two decimal digits")
        }
        guard Limits.bcryptCosts.contains(cost) else {
            throw .costOutOfRange(parameter: "bcrypt cost", value: cost, allowed: Limits.bcryptCosts)
        }
        let saltAndHash = fields[3]
        guard saltAndHash.utf8.count == 53 else {
            throw .malformed("a bcrypt salt and hash are 53 characters, not \(saltAndHash.utf8.count)")
        }
        guard let salt = Bcrypt.decode(saltAndHash.prefix(22)), salt.count == Bcrypt.saltByteCount else {
            throw .malformed("the bcrypt salt is not 22 characters of bcrypt's base64")
        }
        guard let hash = Bcrypt.decode(saltAndHash.suffix(31)), hash.count == Bcrypt.hashByteCount else {
            throw .malformed("the bcrypt hash is not 31 characters of bcrypt's base64")
        }
        return .bcrypt(variant: String(fields[1]), cost: cost, salt: salt, hash: hash)
    }

    /// `$argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>`.
    private static func readArgon2id(_ fields: [Substring]) throws(ImportedPasswordHashError) -> Self {
        // Without a version field, the reference implementation means version 16.
        if fields.count == 5, fields[2].hasPrefix("m=") { throw .unsupportedVersion("none") }
        guard fields.count == 6 else {
            throw .malformed("an Argon2id string has the form $argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>")
        }
        let version = try number(fields[2], named: "v")
        guard version == Argon2id.version else { throw .unsupportedVersion(String(version)) }

        let parameters = fields[3].split(separator: ",", omittingEmptySubsequences: false)
        guard parameters.count == 3 else { throw .malformed("the Argon2id parameters are m=…,t=…,p=… in this order") }
        let memoryKiB = try number(parameters[0], named: "m")
        let iterations = try number(parameters[1], named: "t")
        let parallelism = try number(parameters[2], named: "p")
        guard Limits.argon2Parallelism.contains(parallelism) else {
            throw .costOutOfRange(parameter: "Argon2id p", value: parallelism, allowed: Limits.argon2Parallelism)
        }
        let memoryRange = 8 * parallelism...Limits.argon2MaximumMemoryKiB
        guard memoryRange.contains(memoryKiB) else {
            throw .costOutOfRange(parameter: "Argon2id m (KiB)", value: memoryKiB, allowed: memoryRange)
        }
        guard Limits.argon2Iterations.contains(iterations) else {
            throw .costOutOfRange(parameter: "Argon2id t", value: iterations, allowed: Limits.argon2Iterations)
        }
        guard memoryKiB * iterations <= Limits.argon2MaximumWorkKiB else {
            throw .costOutOfRange(
                parameter: "Argon2id m × t (KiB)", value: memoryKiB * iterations, allowed: 8...Limits.argon2MaximumWorkKiB)
        }
        guard let salt = Base64Codec.standard.decode(String(fields[4])) else {
            throw .malformed("the Argon2id salt is not unpadded standard base64")
        }
        guard let hash = Base64Codec.standard.decode(String(fields[5])) else {
            throw .malformed("the Argon2id hash is not unpadded standard base64")
        }
        try checkLengths(salt: salt, hash: hash)
        return .argon2id(memoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism, salt: salt, hash: hash)
    }

    /// `$pbkdf2-sha256$i=…$<salt>$<hash>`.
    private static func readPBKDF2SHA256(_ fields: [Substring]) throws(ImportedPasswordHashError) -> Self {
        guard fields.count == 5 else {
            throw .malformed("a PBKDF2 string has the form $pbkdf2-sha256$i=…$<salt>$<hash>")
        }
        return try readPBKDF2SHA256(iterations: number(fields[2], named: "i"), salt: fields[3], hash: fields[4])
    }

    private static func readPBKDF2SHA256(
        iterations: Int, salt saltText: Substring, hash hashText: Substring
    ) throws(ImportedPasswordHashError) -> Self {
        guard Limits.pbkdf2Iterations.contains(iterations) else {
            throw .costOutOfRange(parameter: "PBKDF2 iterations", value: iterations, allowed: Limits.pbkdf2Iterations)
        }
        guard let salt = decodePaddedOrNot(saltText) else { throw .malformed("the PBKDF2 salt is not standard base64") }
        guard let hash = decodePaddedOrNot(hashText) else { throw .malformed("the PBKDF2 hash is not standard base64") }
        try checkLengths(salt: salt, hash: hash)
        return .pbkdf2SHA256(iterations: iterations, salt: salt, hash: hash)
    }

    private static func checkLengths(salt: [UInt8], hash: [UInt8]) throws(ImportedPasswordHashError) {
        guard Limits.saltByteCounts.contains(salt.count) else {
            throw .lengthOutOfRange(field: "salt", byteCount: salt.count, allowed: Limits.saltByteCounts)
        }
        guard Limits.hashByteCounts.contains(hash.count) else {
            throw .lengthOutOfRange(field: "hash", byteCount: hash.count, allowed: Limits.hashByteCounts)
        }
    }

    /// The value of `name=digits`: decimal, no sign, no leading zero, at most 10 digits.
    private static func number(_ field: Substring, named name: String) throws(ImportedPasswordHashError) -> Int {
        guard field.hasPrefix(name + "=") else { throw .malformed("expected \(name)=") }
        let digits = field.dropFirst(name.count + 1)
        guard (1...10).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            digits.count == 1 || digits.first != "0", let value = Int(digits)
        else { throw .malformed("\(name) is not a decimal number of at most 10 digits") }
        return value
    }

    /// Standard base64 with its padding, or without: nil on misplaced or missing-and-present
    /// padding, and on whatever ``Base64Codec`` refuses.
    private static func decodePaddedOrNot(_ text: Substring) -> [UInt8]? {
        let unpadded = text.prefix { $0 != "=" }
        let padding = text.count - unpadded.count
        if padding > 0 {
            guard text.count % 4 == 0, padding <= 2, text.suffix(padding).allSatisfy({ $0 == "=" }) else { return nil }
        }
        return Base64Codec.standard.decode(String(unpadded))
    }

    /// Unpadded base64 text with the `=` that RFC 4648 adds to make its length a multiple of 4.
    private static func padded(_ text: String) -> String {
        text + String(repeating: "=", count: (4 - text.count % 4) % 4)
    }
}
