import Foundation
import Testing
import SCACore

@Suite("TOTP (RFC 6238)")
struct TOTPTests {
    struct File: Decodable {
        let digits: Int
        let period: Int
        let seedsASCII: [String: String]
        let vectors: [Row]
        struct Row: Decodable {
            let unixTime: Double
            let stepHex: String
            let algorithm: OTPAlgorithm
            let code: String
        }
    }

    static let seed = Array("12345678901234567890".utf8)

    @Test("Appendix B: every row, SHA-1, SHA-256 and SHA-512")
    func appendixB() throws {
        let file = try Vector.load(File.self, from: "rfc6238-totp")
        #expect(file.vectors.count == 18)
        for row in file.vectors {
            let seed = try #require(file.seedsASCII[row.algorithm.rawValue])
            let totp = TOTP(
                secret: Array(seed.utf8), digits: file.digits, period: file.period, algorithm: row.algorithm)
            let date = Date(timeIntervalSince1970: row.unixTime)
            #expect(totp.step(at: date) == Int64(row.stepHex, radix: 16), "T at \(row.unixTime)")
            #expect(totp.code(at: date) == row.code, "\(row.algorithm) at \(row.unixTime)")
            #expect(totp.matchingStep(for: row.code, at: date, drift: 0) == totp.step(at: date))
        }
    }

    @Test("a step is floor(unix time / period)")
    func stepBoundaries() {
        let totp = TOTP(secret: Self.seed)
        #expect(totp.step(at: Date(timeIntervalSince1970: 0)) == 0)
        #expect(totp.step(at: Date(timeIntervalSince1970: 29.999)) == 0)
        #expect(totp.step(at: Date(timeIntervalSince1970: 30)) == 1)
        #expect(totp.step(at: Date(timeIntervalSince1970: -1)) == -1)
        #expect(TOTP(secret: Self.seed, period: 60).step(at: Date(timeIntervalSince1970: 119)) == 1)
    }

    @Test("drift: the previous and the next step match, two steps away does not")
    func drift() {
        let totp = TOTP(secret: Self.seed)
        let now = Date(timeIntervalSince1970: 1_234_567_890)
        let step = totp.step(at: now)
        #expect(totp.matchingStep(for: totp.code(forStep: step), at: now) == step)
        #expect(totp.matchingStep(for: totp.code(forStep: step - 1), at: now) == step - 1)
        #expect(totp.matchingStep(for: totp.code(forStep: step + 1), at: now) == step + 1)
        #expect(totp.matchingStep(for: totp.code(forStep: step - 2), at: now) == nil)
        #expect(totp.matchingStep(for: totp.code(forStep: step + 2), at: now) == nil)
        #expect(totp.matchingStep(for: totp.code(forStep: step + 2), at: now, drift: 2) == step + 2)
        #expect(totp.matchingStep(for: totp.code(forStep: step - 1), at: now, drift: 0) == nil)
    }

    @Test(
        "codes that are not exactly `digits` ASCII digits are refused",
        arguments: ["", "12345", "1234567", "12345a", " 12345", "123 45", "١٢٣٤٥٦", "+12345", "-12345"])
    func malformedCodes(code: String) {
        let totp = TOTP(secret: Self.seed)
        #expect(totp.matchingStep(for: code, at: Date(timeIntervalSince1970: 59)) == nil)
    }

    @Test("a wrong code of the right shape does not match")
    func wrongCode() {
        let totp = TOTP(secret: Self.seed)
        let now = Date(timeIntervalSince1970: 59)
        let step = totp.step(at: now)
        let nearby = Set((step - 1...step + 1).map { totp.code(forStep: $0) })
        let wrong = (0..<1_000_000).lazy.map { String(format: "%06d", $0) }.first { !nearby.contains($0) }
        #expect(totp.matchingStep(for: wrong ?? "", at: now) == nil)
    }

    @Test("otpauth URI: format, percent-encoding and parsing back")
    func otpauthURI() throws {
        let secret = Array("12345678901234567890".utf8)
        let uri = TOTP.otpauthURI(secret: secret, account: "alice@example.com", issuer: "ACME Bank")
        #expect(
            uri == "otpauth://totp/ACME%20Bank:alice%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
                + "&issuer=ACME%20Bank&algorithm=SHA1&digits=6&period=30")

        let parsed = try #require(TOTP.parse(uri))
        #expect(parsed.secret == secret)
        #expect(parsed.digits == 6 && parsed.period == 30 && parsed.algorithm == .sha1)

        let custom = TOTP.otpauthURI(
            secret: secret, account: "a:b", issuer: "X", digits: 8, period: 60, algorithm: .sha512)
        #expect(custom.hasPrefix("otpauth://totp/X:a%3Ab?"))
        let parsedCustom = try #require(TOTP.parse(custom))
        #expect(parsedCustom.digits == 8 && parsedCustom.period == 60 && parsedCustom.algorithm == .sha512)
        #expect(parsedCustom.code(forStep: 7) == TOTP(secret: secret, digits: 8, period: 60, algorithm: .sha512).code(forStep: 7))
    }

    @Test("parse: defaults, a bare secret, and malformed input")
    func parse() throws {
        let minimal = try #require(TOTP.parse("otpauth://totp/Example?secret=jbswy3dpehpk3pxp"))
        #expect(minimal.secret == Base32.decode("JBSWY3DPEHPK3PXP"))
        #expect(minimal.digits == 6 && minimal.period == 30 && minimal.algorithm == .sha1)

        let bare = try #require(TOTP.parse("JBSW Y3DP EHPK 3PXP"))
        #expect(bare.secret == minimal.secret)

        for bad in [
            "", "not base32!", "otpauth://hotp/X?secret=JBSWY3DPEHPK3PXP&counter=1",
            "otpauth://totp/X", "otpauth://totp/X?issuer=X", "otpauth://totp/X?secret=",
            "otpauth://totp/X?secret=JBSWY3DP1", "otpauth://totp/X?secret=JBSWY3DPEHPK3PXP&digits=5",
            "otpauth://totp/X?secret=JBSWY3DPEHPK3PXP&digits=eight",
            "otpauth://totp/X?secret=JBSWY3DPEHPK3PXP&period=0",
            "otpauth://totp/X?secret=JBSWY3DPEHPK3PXP&algorithm=MD5",
            "otpauth://totp/X?secret=JBSWY3DPEHPK3PXP&secret=JBSWY3DPEHPK3PXQ",
            "otpauth://totp/X?secret=JBSWY3DPEHPK3PXP&issuer=%zz",
        ] {
            #expect(TOTP.parse(bad) == nil, "\(bad)")
        }
    }
}
