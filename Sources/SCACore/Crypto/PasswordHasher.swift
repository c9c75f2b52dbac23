import Crypto
import CryptoExtras
import Foundation

/// Hashes passwords and PINs with scrypt (RFC 7914) into PHC strings:
/// `$scrypt$ln=15,r=8,p=1$<salt>$<hash>`, salt (16 bytes) and hash (32 bytes) in standard
/// base64 without padding, as the PHC string format writes them.
///
/// Secrets are normalized to Unicode NFC before hashing (as RFC 8265's OpaqueString does), so
/// a password typed on a keyboard that composes accents differently still verifies.
package struct PasswordHasher: Sendable {
    /// scrypt's cost parameters.
    package struct Parameters: Sendable, Equatable, Codable {
        /// log2 of N, the CPU and memory cost.
        package var logN: Int
        /// The block size.
        package var r: Int
        /// The parallelism.
        package var p: Int

        package init(logN: Int, r: Int, p: Int) {
            self.logN = logN
            self.r = r
            self.p = p
        }

        /// N = 2^15, r = 8, p = 1: 32 MiB and about 0.1 s per hash (OWASP's scrypt minimum
        /// asks for 2^17 with r = 8, or an equivalent; raise `logN` when the hardware allows).
        package static let `default` = Parameters(logN: 15, r: 8, p: 1)

        /// N = 16, r = 1, p = 1: fast enough for tests, and no protection at all.
        package static let insecureFastForTesting = Parameters(logN: 4, r: 1, p: 1)

        /// Whether these parameters are ones this type agrees to compute: a PHC string read
        /// from storage must not make one login cost minutes or gigabytes. Check it when
        /// reading parameters from configuration; ``PasswordHasher/hash(_:)`` throws otherwise.
        ///
        /// logN 1...20, r 1...16, p 1...16, N·r·p ≤ 2^23 (the work of logN 20, r 8, p 1,
        /// 1 GiB of memory), and N < 2^(16·r) as RFC 7914 requires.
        package var isWithinLimits: Bool {
            guard (1...20).contains(logN), (1...16).contains(r), (1...16).contains(p) else { return false }
            guard logN < 16 * r else { return false }
            return (1 << logN) * r * p <= 1 << 23
        }
    }

    static let saltByteCount = 16
    static let hashByteCount = 32

    /// The parameters of new hashes.
    package let parameters: Parameters
    private let random: any RandomSource

    /// - Parameters:
    ///   - parameters: The cost of new hashes. Verification uses the cost written in each
    ///     PHC string instead.
    ///   - random: Where salts come from.
    package init(parameters: Parameters = .default, random: any RandomSource = SystemRandom()) {
        self.parameters = parameters
        self.random = random
    }

    /// Hashes `secret` with a fresh salt.
    ///
    /// - Returns: The PHC string to store.
    /// - Throws: ``PasswordHashingError/unsupportedParameters`` when ``parameters`` are outside
    ///   the limits that ``verify(_:against:)`` accepts; an error from scrypt otherwise.
    package func hash(_ secret: String) throws -> String {
        guard parameters.isWithinLimits else { throw PasswordHashingError.unsupportedParameters }
        let salt = random.bytes(Self.saltByteCount)
        let hash = try Self.scrypt(
            password: Self.normalized(secret), salt: salt, parameters: parameters,
            outputByteCount: Self.hashByteCount)
        let p = parameters
        return "$scrypt$ln=\(p.logN),r=\(p.r),p=\(p.p)$"
            + Base64Codec.standard.encode(salt) + "$" + Base64Codec.standard.encode(hash)
    }

    /// Whether `secret` is the one hashed into `phc`.
    ///
    /// Uses the parameters written in `phc`, so hashes made with older parameters still
    /// verify, and compares in constant time.
    ///
    /// - Returns: false, without throwing or trapping, for a wrong secret and for a malformed
    ///   or unsupported PHC string (another algorithm, parameters beyond the limits).
    package func verify(_ secret: String, against phc: String) -> Bool {
        // A hash imported from the system this one replaced is checked as that system would;
        // the first login that passes replaces it (``needsRehash(_:)`` says so for every
        // hash that is not this hasher's scrypt).
        if ImportedPasswordHash.isImported(phc) {
            return (try? ImportedPasswordHash(phc))?.verify(secret) ?? false
        }
        guard let stored = StoredHash(phc) else { return false }
        guard
            let hash = try? Self.scrypt(
                password: Self.normalized(secret), salt: stored.salt, parameters: stored.parameters,
                outputByteCount: stored.hash.count)
        else { return false }
        return ConstantTime.equals(hash, stored.hash)
    }

    /// Whether `phc` should be replaced by a new hash at the next successful login: its cost,
    /// salt or hash length is below what this hasher produces, or it is not readable at all.
    package func needsRehash(_ phc: String) -> Bool {
        guard let stored = StoredHash(phc) else { return true }
        return stored.parameters.logN < parameters.logN
            || stored.parameters.r < parameters.r
            || stored.parameters.p < parameters.p
            || stored.salt.count < Self.saltByteCount
            || stored.hash.count < Self.hashByteCount
    }

    /// Raw scrypt, as RFC 7914 defines it (no normalization, no limits): what ``hash(_:)`` and
    /// ``verify(_:against:)`` compute, exposed to check it against the RFC's vectors.
    package static func scrypt(
        password: [UInt8], salt: [UInt8], parameters: Parameters, outputByteCount: Int
    ) throws -> [UInt8] {
        let key = try KDF.Scrypt.deriveKey(
            from: password, salt: salt, outputByteCount: outputByteCount,
            rounds: 1 << parameters.logN, blockSize: parameters.r, parallelism: parameters.p)
        return key.withUnsafeBytes { Array($0) }
    }

    private static func normalized(_ secret: String) -> [UInt8] {
        Array(secret.precomposedStringWithCanonicalMapping.utf8)
    }
}

/// A PHC string taken apart, or nil: the only place that reads stored hashes.
private struct StoredHash {
    let parameters: PasswordHasher.Parameters
    let salt: [UInt8]
    let hash: [UInt8]

    init?(_ phc: String) {
        let fields = phc.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1] == "scrypt" else { return nil }
        let values = fields[2].split(separator: ",", omittingEmptySubsequences: false)
        guard values.count == 3,
            let logN = Self.number(values[0], named: "ln"),
            let r = Self.number(values[1], named: "r"),
            let p = Self.number(values[2], named: "p")
        else { return nil }
        let parameters = PasswordHasher.Parameters(logN: logN, r: r, p: p)
        guard parameters.isWithinLimits,
            let salt = Base64Codec.standard.decode(String(fields[3])), (8...64).contains(salt.count),
            let hash = Base64Codec.standard.decode(String(fields[4])), (16...64).contains(hash.count)
        else { return nil }
        self.parameters = parameters
        self.salt = salt
        self.hash = hash
    }

    /// The value of `name=digits`: decimal, no sign, no leading zero, at most 4 digits.
    private static func number(_ field: Substring, named name: String) -> Int? {
        guard field.hasPrefix(name + "=") else { return nil }
        let digits = field.dropFirst(name.count + 1)
        guard (1...4).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            digits.count == 1 || digits.first != "0"
        else { return nil }
        return Int(digits)
    }
}
