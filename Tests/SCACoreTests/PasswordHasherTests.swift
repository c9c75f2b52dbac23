import Foundation
import Testing
import SCACore

@Suite("PasswordHasher (scrypt, PHC string)")
struct PasswordHasherTests {
    struct File: Decodable {
        let vectors: [Row]
        struct Row: Decodable {
            let passwordASCII: String
            let saltASCII: String
            let logN: Int
            let r: Int
            let p: Int
            let dkLen: Int
            let derivedKeyHex: String
        }
    }

    static let fast = PasswordHasher(parameters: .insecureFastForTesting, random: SeededRandomForTesting(seed: 1))

    @Test("scrypt known answers, RFC 7914 §12 (incl. P=\"password\", S=\"NaCl\", N=1024, r=8, p=16)")
    func rfc7914() throws {
        let file = try Vector.load(File.self, from: "rfc7914-scrypt")
        #expect(file.vectors.contains { $0.passwordASCII == "password" && $0.logN == 10 && $0.p == 16 })
        for row in file.vectors {
            let key = try PasswordHasher.scrypt(
                password: Array(row.passwordASCII.utf8), salt: Array(row.saltASCII.utf8),
                parameters: .init(logN: row.logN, r: row.r, p: row.p), outputByteCount: row.dkLen)
            #expect(key.hex == row.derivedKeyHex, "P=\(row.passwordASCII) S=\(row.saltASCII)")
        }
    }

    @Test("round trip; a wrong password is refused")
    func roundTrip() throws {
        let phc = try Self.fast.hash("correct horse battery staple")
        #expect(Self.fast.verify("correct horse battery staple", against: phc))
        #expect(!Self.fast.verify("correct horse battery stapl", against: phc))
        #expect(!Self.fast.verify("", against: phc))
        // Verification does not depend on the verifier's own parameters.
        #expect(PasswordHasher().verify("correct horse battery staple", against: phc))
    }

    @Test("the empty secret and non-ASCII secrets hash and verify; NFC and NFD are one password")
    func unicode() throws {
        let empty = try Self.fast.hash("")
        #expect(Self.fast.verify("", against: empty))
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let phc = try Self.fast.hash(composed)
        #expect(Self.fast.verify(decomposed, against: phc))
        #expect(!Self.fast.verify("cafe", against: phc))
    }

    @Test("PHC string format: $scrypt$ln=…,r=…,p=…$salt$hash in unpadded standard base64")
    func format() throws {
        let phc = try Self.fast.hash("secret")
        let fields = phc.split(separator: "$", omittingEmptySubsequences: false)
        #expect(fields.count == 5)
        #expect(fields[0] == "" && fields[1] == "scrypt" && fields[2] == "ln=4,r=1,p=1")
        // 16 bytes -> 22 characters, 32 bytes -> 43 characters, no '=' and never '-' or '_'.
        #expect(fields[3].count == 22 && fields[4].count == 43)
        #expect(!fields[3].contains("=") && !fields[4].contains("="))
        #expect(!phc.contains("-") && !phc.contains("_"))

        // Salts come from the injected source: the same seed gives the same string, fresh
        // sources with other seeds give other salts.
        let again = try PasswordHasher(parameters: .insecureFastForTesting, random: SeededRandomForTesting(seed: 1))
            .hash("secret")
        let other = try PasswordHasher(parameters: .insecureFastForTesting, random: SeededRandomForTesting(seed: 2))
            .hash("secret")
        let first = try PasswordHasher(parameters: .insecureFastForTesting, random: SeededRandomForTesting(seed: 1))
            .hash("secret")
        #expect(again == first)
        #expect(other != first)
    }

    @Test("parameters are read from the PHC string")
    func parametersFromString() throws {
        let phc = try PasswordHasher(parameters: .init(logN: 5, r: 2, p: 3), random: SeededRandomForTesting(seed: 3))
            .hash("pin 1234")
        #expect(phc.hasPrefix("$scrypt$ln=5,r=2,p=3$"))
        #expect(Self.fast.verify("pin 1234", against: phc))
        // Changing the parameters in the string changes the hash: it no longer verifies.
        let tampered = phc.replacingOccurrences(of: "ln=5", with: "ln=6")
        #expect(!Self.fast.verify("pin 1234", against: tampered))
    }

    @Test("one hash with the default parameters")
    func defaultParameters() throws {
        let hasher = PasswordHasher()
        #expect(hasher.parameters == .init(logN: 15, r: 8, p: 1))
        let phc = try hasher.hash("hunter2")
        #expect(phc.hasPrefix("$scrypt$ln=15,r=8,p=1$"))
        #expect(!hasher.needsRehash(phc))
    }

    @Test("malformed, unsupported and absurd strings are false, never a crash")
    func malformed() throws {
        let good = try Self.fast.hash("pw")
        let fields = good.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        let salt = fields[3]
        let hash = fields[4]
        let bad = [
            "", "$", "$$$$", "scrypt", good + "$", "x" + good, good.replacingOccurrences(of: "$scrypt$", with: "$argon2id$"),
            "$scrypt$ln=4,r=1$\(salt)$\(hash)",
            "$scrypt$ln=4,r=1,p=1,x=2$\(salt)$\(hash)",
            "$scrypt$r=1,ln=4,p=1$\(salt)$\(hash)",
            "$scrypt$ln=04,r=1,p=1$\(salt)$\(hash)",
            "$scrypt$ln=+4,r=1,p=1$\(salt)$\(hash)",
            "$scrypt$ln=-4,r=1,p=1$\(salt)$\(hash)",
            "$scrypt$ln=4,r=1,p=1 $\(salt)$\(hash)",
            "$scrypt$ln=99999999999999999999,r=1,p=1$\(salt)$\(hash)",
            "$scrypt$ln=0,r=1,p=1$\(salt)$\(hash)",
            "$scrypt$ln=21,r=8,p=1$\(salt)$\(hash)",  // beyond the logN cap
            "$scrypt$ln=20,r=16,p=16$\(salt)$\(hash)",  // absurd work
            "$scrypt$ln=17,r=1,p=1$\(salt)$\(hash)",  // N >= 2^(16 r): invalid scrypt
            "$scrypt$ln=4,r=0,p=1$\(salt)$\(hash)",
            "$scrypt$ln=4,r=1,p=0$\(salt)$\(hash)",
            "$scrypt$ln=4,r=1,p=1$\(salt)=$\(hash)",  // padding
            "$scrypt$ln=4,r=1,p=1$\(salt)$\(hash)==",
            "$scrypt$ln=4,r=1,p=1$$\(hash)",  // empty salt
            "$scrypt$ln=4,r=1,p=1$\(salt)$",  // empty hash
            "$scrypt$ln=4,r=1,p=1$\(salt)$\(hash.dropLast(24))",  // hash too short
            "$scrypt$ln=4,r=1,p=1$\(salt)$-\(hash.dropFirst())",  // URL alphabet
            "$scrypt$ln=4,r=1,p=1$!!!!$\(hash)",
        ]
        for phc in bad {
            #expect(!Self.fast.verify("pw", against: phc), "\(phc)")
        }
        #expect(Self.fast.verify("pw", against: good))
    }

    @Test("hash refuses parameters that verify would refuse")
    func unsupportedParameters() {
        let hasher = PasswordHasher(parameters: .init(logN: 21, r: 8, p: 1))
        #expect(throws: PasswordHashingError.unsupportedParameters) { try hasher.hash("x") }
    }

    @Test("needsRehash: weaker parameters or an unreadable string")
    func needsRehash() throws {
        let weak = try Self.fast.hash("pw")
        let strong = PasswordHasher(parameters: .init(logN: 5, r: 1, p: 1))
        #expect(strong.needsRehash(weak))
        #expect(!Self.fast.needsRehash(weak))
        #expect(Self.fast.needsRehash("garbage"))
        // Stronger than the hasher's own parameters: keep it.
        let stronger = try strong.hash("pw")
        #expect(!Self.fast.needsRehash(stronger))
        #expect(PasswordHasher().needsRehash(stronger))
        #expect(PasswordHasher(parameters: .init(logN: 5, r: 1, p: 2)).needsRehash(stronger))
        #expect(PasswordHasher(parameters: .init(logN: 5, r: 2, p: 1)).needsRehash(stronger))
    }
}
