import Foundation
import Testing
import SCACore

// Beyond these published vectors, 100 random hashes were cross-checked while writing this
// code: made by Python's bcrypt ($2a$ and $2b$, cost 4 and 5, UTF-8 passwords of up to 73
// characters, some past 72 bytes), argon2-cffi (m, t, p, salt and hash lengths varied) and
// hashlib (PBKDF2, padded and unpadded base64), each verified here and refused once changed.
@Suite("ImportedPasswordHash (bcrypt, Argon2id, Keycloak PBKDF2)")
struct ImportedPasswordHashTests {
    // MARK: - BLAKE2b and Argon2id

    @Test("BLAKE2b-512 of \"abc\", RFC 7693 Appendix A")
    func blake2b() {
        let digest = BLAKE2b.hash(Array("abc".utf8), outputByteCount: 64)
        #expect(
            digest.hex
                == "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                + "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923")
    }

    @Test("Argon2id with secret and associated data, RFC 9106 section 5.3")
    func argon2idRFC9106() {
        let tag = Argon2id.hash(
            password: [UInt8](repeating: 0x01, count: 32), salt: [UInt8](repeating: 0x02, count: 16),
            secret: [UInt8](repeating: 0x03, count: 8), associatedData: [UInt8](repeating: 0x04, count: 12),
            memoryKiB: 32, iterations: 3, parallelism: 4, tagByteCount: 32)
        #expect(tag.hex == "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659")
    }

    // The Argon2 reference implementation's test vectors (its test.c), version 19, "password"
    // salted with "somesalt"; also cross-checked with argon2-cffi.
    static let argon2Reference = [
        "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
        "$argon2id$v=19$m=256,t=2,p=2$c29tZXNhbHQ$bQk8UB/VmZZF4Oo79iDXuL5/0ttZwg2f/5U52iv1cDc",
    ]

    @Test("Argon2id PHC strings of the Argon2 reference implementation's test vectors", arguments: argon2Reference)
    func argon2idPHC(encoded: String) throws {
        let hash = try ImportedPasswordHash(encoded)
        #expect(hash.verify("password"))
        #expect(!hash.verify("passwore"))
        #expect(hash.encoded == encoded)
        #expect(ImportedPasswordHash.isImported(encoded))
    }

    @Test("the raw tag of the same reference vector, m=256, t=2, p=1")
    func argon2idRawTag() {
        let tag = Argon2id.hash(
            password: Array("password".utf8), salt: Array("somesalt".utf8), memoryKiB: 256, iterations: 2,
            parallelism: 1, tagByteCount: 32)
        #expect(tag.hex == "9dfeb910e80bad0311fee20f9c0e2b12c17987b4cac90c2ef54d5b3021c68bfe")
    }

    // MARK: - bcrypt

    // OpenBSD bcrypt test vectors (as Openwall's crypt_blowfish and Python's bcrypt test with
    // them), jBCrypt's empty-password vector and Python bcrypt's $2b$ vectors: UTF-8 passwords.
    static let bcryptTextVectors: [(password: String, encoded: String)] = [
        ("U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"),
        ("U*U*", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK"),
        ("U*U*U", "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"),
        ("", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy"),
        ("", "$2a$06$DCq7YPn5Rq63x1Lad4cll.TV4S6ytwfsfvkgY8jIucDrjc8deX1s."),
        (
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789chars after 72 are ignored",
            "$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui"
        ),
        ("Kk4DQuMMfZL9o", "$2b$04$cVWp4XaNU8a4v1uMRum2SO026BWLIoQMD/TXg5uZV.0P.uO8m3YEm"),
        ("9IeRXmnGxMYbs", "$2b$04$pQ7gRO7e6wx/936oXhNjrOUNOHL1D0h1N2IDbJZYs.1ppzSof6SPy"),
        ("J8eHUDuxBB520", "$2b$04$VvlCUKbTMjaxaYJ.k5juoecpG/7IzcH1AkmqKi.lIZMVIOLClWAk."),
    ]

    @Test("bcrypt published vectors verify through the stored form; a wrong password does not")
    func bcryptText() throws {
        for vector in Self.bcryptTextVectors {
            let hash = try ImportedPasswordHash(vector.encoded)
            #expect(hash.verify(vector.password), "\(vector.encoded)")
            #expect(!hash.verify("x" + vector.password), "\(vector.encoded)")
            #expect(hash.encoded == vector.encoded)
        }
    }

    // Openwall's crypt_blowfish test vectors with bytes that are not UTF-8, computed on the
    // raw function. Their "$2a$" vectors for passwords with 0xFF bytes are left out: there
    // crypt_blowfish deviates on purpose, for bytes a login's UTF-8 never holds.
    static let bcryptByteVectors: [(password: [UInt8], encoded: String)] = [
        ([0xA3], "$2y$05$/OK.fbVrR/bpIqNJ5ianF.Sa7shbm4.OzKpvFnX1pQLmQW96oUlCq"),
        ([0xA3], "$2b$05$/OK.fbVrR/bpIqNJ5ianF.Sa7shbm4.OzKpvFnX1pQLmQW96oUlCq"),
        ([0xFF, 0xFF, 0xA3], "$2y$05$/OK.fbVrR/bpIqNJ5ianF.CE5elHaaO4EbggVDjb8P19RukzXSM3e"),
        ([0xFF, 0xA3, 0x33, 0x34, 0x35], "$2y$05$/OK.fbVrR/bpIqNJ5ianF.nRht2l/HRhr6zmCp9vYUvvsqynflf9e"),
        ([0xA3, 0x61, 0x62], "$2y$05$/OK.fbVrR/bpIqNJ5ianF.6IflQkJytoRVc1yuaNtHfiuq.FRlSIS"),
        (
            [UInt8](repeating: 0xAA, count: 72) + Array("chars after 72 are ignored as usual".utf8),
            "$2a$05$/OK.fbVrR/bpIqNJ5ianF.swQOIzjOiJ9GHEPuhEkvqrUyvWhEMx6"
        ),
        (Array([[UInt8]](repeating: [0xAA, 0x55], count: 36).joined()), "$2a$05$/OK.fbVrR/bpIqNJ5ianF.R9xrDjiycxMbQE2bp.vgqlYpW5wx2yy"),
        (Array([[UInt8]](repeating: [0x55, 0xAA, 0xFF], count: 24).joined()), "$2a$05$/OK.fbVrR/bpIqNJ5ianF.9tQZzcJfm3uj2NvJ/n5xkhpqLrMpWCe"),
    ]

    @Test("bcrypt on bytes, Openwall crypt_blowfish test vectors (8-bit bytes, the 72-byte limit)")
    func bcryptBytes() throws {
        for vector in Self.bcryptByteVectors {
            guard case .bcrypt(_, let cost, let salt, let hash) = try ImportedPasswordHash(vector.encoded) else {
                Issue.record("not read as bcrypt: \(vector.encoded)")
                continue
            }
            #expect(Bcrypt.hash(password: vector.password, salt: salt, cost: cost) == hash, "\(vector.encoded)")
        }
    }

    @Test("bcrypt reads 72 bytes at most: a longer password verifies by its first 72 bytes")
    func bcryptTruncation() throws {
        let hash = try ImportedPasswordHash("$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui")
        let first72 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
        #expect(hash.verify(first72))
        #expect(hash.verify(first72 + "anything else"))
        #expect(!hash.verify(String(first72.dropLast())))
    }

    @Test("bcrypt refuses a password holding a NUL byte, which C implementations would cut short")
    func bcryptNUL() throws {
        let hash = try ImportedPasswordHash("$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW")
        #expect(hash.verify("U*U"))
        #expect(!hash.verify("U*U\u{0}more"))
    }

    // MARK: - PBKDF2-HMAC-SHA256

    @Test("PBKDF2-HMAC-SHA256, RFC 7914 section 11, both vectors")
    func pbkdf2RFC7914() {
        let short = ImportedPasswordHash.pbkdf2SHA256(
            iterations: 1, salt: Array("salt".utf8),
            hash: [UInt8](
                hex: "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
                    + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"))
        #expect(short.verify("passwd"))
        #expect(!short.verify("Passwd"))
        let long = ImportedPasswordHash.pbkdf2SHA256(
            iterations: 80000, salt: Array("NaCl".utf8),
            hash: [UInt8](
                hex: "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
                    + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"))
        #expect(long.verify("Password"))
    }

    // Credentials as Keycloak wrote them (secretData's value and salt, credentialData's
    // hashIterations and algorithm) in public realm exports: a 32-byte key for "password" and
    // a 64-byte key for "admin". Cross-checked with Python's hashlib.pbkdf2_hmac.
    static let keycloakCredentials: [(password: String, salt: String, value: String)] = [
        ("password", "P5rtFkGtPfoaryJ6PizUJw==", "JsfNbCOIdZUbyBJ+BT+VoGI91Ec2rWLOvkLPDaX8e9k="),
        (
            "admin", "DWobczblgCRZMULJ2hVCSQ==",
            "uJj9/Yy4dcvZZpRvJP1YWDT/MZEIKCwt1Ax4L4zhOQjpRW71qMM0ajz7dbey/Ie7MMgiFgxOEz2I/eySvhxVOQ=="
        ),
    ]

    @Test("a Keycloak PBKDF2 credential becomes the stored form, which reads back and verifies")
    func keycloak() throws {
        for credential in Self.keycloakCredentials {
            let stored = try ImportedPasswordHash.keycloakPBKDF2(
                algorithm: "pbkdf2-sha256", iterations: 27500, salt: credential.salt, value: credential.value)
            #expect(stored == "$pbkdf2-sha256$i=27500$\(credential.salt)$\(credential.value)")
            #expect(ImportedPasswordHash.isImported(stored))
            let hash = try ImportedPasswordHash(stored)
            #expect(hash.encoded == stored)
            #expect(hash.verify(credential.password))
            #expect(!hash.verify(credential.password.uppercased()))
            // Without its padding, the same text reads as the same hash.
            let unpadded = [credential.salt, credential.value].map { $0.replacingOccurrences(of: "=", with: "") }
            #expect(try ImportedPasswordHash("$pbkdf2-sha256$i=27500$\(unpadded[0])$\(unpadded[1])") == hash)
        }
    }

    // MARK: - Unicode

    @Test("the raw UTF-8 is tried first, then its NFC form: a password hashed composed also verifies typed decomposed")
    func normalisation() throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let salt = [UInt8](repeating: 0x2A, count: 16)
        // Hashes made with the raw function that the published vectors above check.
        let hashedComposed = ImportedPasswordHash.bcrypt(
            variant: "2b", cost: 4, salt: salt, hash: Bcrypt.hash(password: Array(composed.utf8), salt: salt, cost: 4))
        #expect(hashedComposed.verify(composed))
        #expect(hashedComposed.verify(decomposed))
        #expect(!hashedComposed.verify("cafe"))

        // A system that received and hashed the decomposed bytes: they verify as sent, and the
        // composed spelling does not (NFC of it is itself, and NFD is not tried).
        let hashedDecomposed = ImportedPasswordHash.bcrypt(
            variant: "2b", cost: 4, salt: salt, hash: Bcrypt.hash(password: Array(decomposed.utf8), salt: salt, cost: 4))
        #expect(hashedDecomposed.verify(decomposed))
        #expect(!hashedDecomposed.verify(composed))
    }

    // MARK: - Refusals

    @Test("malformed and unsupported strings and out-of-range costs each give their reason")
    func refusals() {
        func reason(_ encoded: String) -> ImportedPasswordHashError? {
            do {
                _ = try ImportedPasswordHash(encoded)
                return nil
            } catch {
                return error
            }
        }
        let bcrypt = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
        let argon2 = "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4"

        #expect(reason("$2x$05$/OK.fbVrR/bpIqNJ5ianF.CE5elHaaO4EbggVDjb8P19RukzXSM3e") == .unsupportedAlgorithm("2x"))
        #expect(reason("$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$0WgHXE2YXhPr6uVgz4uUw7XYoWxRkWtvSsLaOsEbvs8") == .unsupportedAlgorithm("argon2i"))
        #expect(reason("$argon2d$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4") == .unsupportedAlgorithm("argon2d"))
        #expect(reason("$pbkdf2-sha512$i=1$c2FsdHNhbHQ$c2FsdHNhbHRzYWx0c2FsdA") == .unsupportedAlgorithm("pbkdf2-sha512"))
        #expect(reason("$scrypt$ln=4,r=1,p=1$c2FsdHNhbHQ$c2FsdHNhbHRzYWx0c2FsdA") == .unsupportedAlgorithm("scrypt"))

        #expect(reason(bcrypt.replacingOccurrences(of: "$05$", with: "$03$")) == .costOutOfRange(parameter: "bcrypt cost", value: 3, allowed: 4...16))
        #expect(reason(bcrypt.replacingOccurrences(of: "$05$", with: "$17$")) == .costOutOfRange(parameter: "bcrypt cost", value: 17, allowed: 4...16))
        #expect(reason(bcrypt.replacingOccurrences(of: "$05$", with: "$31$")) == .costOutOfRange(parameter: "bcrypt cost", value: 31, allowed: 4...16))
        #expect(reason(argon2.replacingOccurrences(of: "m=256", with: "m=1048577")) == .costOutOfRange(parameter: "Argon2id m (KiB)", value: 1_048_577, allowed: 8...1_048_576))
        #expect(reason(argon2.replacingOccurrences(of: "m=256", with: "m=4")) == .costOutOfRange(parameter: "Argon2id m (KiB)", value: 4, allowed: 8...1_048_576))
        #expect(reason(argon2.replacingOccurrences(of: "t=2", with: "t=17")) == .costOutOfRange(parameter: "Argon2id t", value: 17, allowed: 1...16))
        #expect(reason(argon2.replacingOccurrences(of: "m=256,t=2", with: "m=1048576,t=5")) == .costOutOfRange(parameter: "Argon2id m × t (KiB)", value: 5_242_880, allowed: 8...4_194_304))
        #expect(reason("$pbkdf2-sha256$i=0$c2FsdHNhbHRzYWx0c2FsdA==$c2FsdHNhbHRzYWx0c2FsdA==") == .costOutOfRange(parameter: "PBKDF2 iterations", value: 0, allowed: 1...10_000_000))
        #expect(reason("$pbkdf2-sha256$i=10000001$c2FsdHNhbHRzYWx0c2FsdA==$c2FsdHNhbHRzYWx0c2FsdA==") == .costOutOfRange(parameter: "PBKDF2 iterations", value: 10_000_001, allowed: 1...10_000_000))

        #expect(reason(argon2.replacingOccurrences(of: "v=19", with: "v=16")) == .unsupportedVersion("16"))
        #expect(reason(argon2.replacingOccurrences(of: "v=19$", with: "")) == .unsupportedVersion("none"))
        #expect(reason("$pbkdf2-sha256$i=1$c2FsdA==$c2FsdHNhbHRzYWx0c2FsdA==") == .lengthOutOfRange(field: "salt", byteCount: 4, allowed: 8...64))
        #expect(reason("$pbkdf2-sha256$i=1$c2FsdHNhbHRzYWx0c2FsdA==$c2FsdA==") == .lengthOutOfRange(field: "hash", byteCount: 4, allowed: 16...64))

        // Each of these is malformed; the reason says where.
        let malformed = [
            "", "2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", "$", "$$",
            bcrypt.replacingOccurrences(of: "$05$", with: "$5$"),
            bcrypt.replacingOccurrences(of: "$05$", with: "$+5$"),
            String(bcrypt.dropLast()),
            bcrypt + "W",
            bcrypt.replacingOccurrences(of: "CCCCC.", with: "CCCCC+"),
            // Bits set beyond the 16 bytes of salt ("C" where "." is the only ending for them).
            bcrypt.replacingOccurrences(of: "CCCCC.", with: "CCCCCC"),
            argon2.replacingOccurrences(of: "m=256,t=2,p=1", with: "t=2,m=256,p=1"),
            argon2.replacingOccurrences(of: "m=256", with: "m=0256"),
            argon2.replacingOccurrences(of: "m=256", with: "m=-256"),
            argon2.replacingOccurrences(of: "m=256", with: "m=99999999999"),
            argon2.replacingOccurrences(of: "c29tZXNhbHQ", with: "c29tZXNhbHQ="),
            argon2 + "$",
            "$pbkdf2-sha256$i=1$c2FsdHNhbHRzYWx0c2FsdA=$c2FsdHNhbHRzYWx0c2FsdA==",
            "$pbkdf2-sha256$i=1$c2FsdHNhbHRzYWx0c2FsdA===$c2FsdHNhbHRzYWx0c2FsdA==",
            "$pbkdf2-sha256$c2FsdHNhbHRzYWx0c2FsdA==$c2FsdHNhbHRzYWx0c2FsdA==",
        ]
        for encoded in malformed {
            guard case .malformed = reason(encoded) else {
                Issue.record("\(encoded): \(String(describing: reason(encoded)))")
                continue
            }
        }
        #expect(reason(bcrypt) == nil)
        #expect(reason(argon2) == nil)
    }

    @Test("a hash built directly with impossible values is false, not a trap")
    func impossibleValues() {
        #expect(!ImportedPasswordHash.bcrypt(variant: "2b", cost: 3, salt: [], hash: []).verify(""))
        #expect(!ImportedPasswordHash.argon2id(memoryKiB: 7, iterations: 1, parallelism: 1, salt: [], hash: [0, 0, 0, 0]).verify(""))
        #expect(!ImportedPasswordHash.pbkdf2SHA256(iterations: 0, salt: [], hash: [0]).verify(""))
    }

    @Test("Keycloak's own algorithm names other than pbkdf2-sha256 are refused by name")
    func keycloakRefusals() {
        let salt = "c2FsdHNhbHRzYWx0c2FsdA=="
        #expect(throws: ImportedPasswordHashError.unsupportedAlgorithm("pbkdf2")) {
            try ImportedPasswordHash.keycloakPBKDF2(algorithm: "pbkdf2", iterations: 27500, salt: salt, value: salt)
        }
        #expect(throws: ImportedPasswordHashError.unsupportedAlgorithm("argon2")) {
            try ImportedPasswordHash.keycloakPBKDF2(algorithm: "argon2", iterations: 3, salt: salt, value: salt)
        }
        #expect(throws: ImportedPasswordHashError.costOutOfRange(parameter: "PBKDF2 iterations", value: 0, allowed: 1...10_000_000)) {
            try ImportedPasswordHash.keycloakPBKDF2(algorithm: "pbkdf2-sha256", iterations: 0, salt: salt, value: salt)
        }
        #expect(throws: ImportedPasswordHashError.malformed("the PBKDF2 hash is not standard base64")) {
            try ImportedPasswordHash.keycloakPBKDF2(algorithm: "pbkdf2-sha256", iterations: 1, salt: salt, value: "not base64!")
        }
    }

    @Test("isImported tells the forms read here from this server's scrypt strings")
    func isImported() {
        #expect(ImportedPasswordHash.isImported("$2b$12$abc"))
        #expect(ImportedPasswordHash.isImported("$2y$12$abc"))
        #expect(ImportedPasswordHash.isImported("$argon2id$v=19$"))
        #expect(ImportedPasswordHash.isImported("$pbkdf2-sha256$i=1$"))
        #expect(!ImportedPasswordHash.isImported("$scrypt$ln=15,r=8,p=1$salt$hash"))
        #expect(!ImportedPasswordHash.isImported("$argon2i$v=19$"))
        #expect(!ImportedPasswordHash.isImported("$2x$05$"))
        #expect(!ImportedPasswordHash.isImported(""))
    }

    @Test("error descriptions name the problem without the hash")
    func descriptions() {
        #expect(
            ImportedPasswordHashError.costOutOfRange(parameter: "bcrypt cost", value: 3, allowed: 4...16).description
                == "bcrypt cost = 3 is outside 4...16")
        #expect(ImportedPasswordHashError.unsupportedAlgorithm("2x").description == "unsupported algorithm 2x")
    }
}
