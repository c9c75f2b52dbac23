import Testing
import SCACore

@Suite("HOTP (RFC 4226)")
struct HOTPTests {
    struct File: Decodable {
        let secretASCII: String
        let digits: Int
        let algorithm: OTPAlgorithm
        let vectors: [Row]
        struct Row: Decodable {
            let counter: UInt64
            let code: String
        }
    }

    @Test("Appendix D: counters 0 to 9")
    func appendixD() throws {
        let file = try Vector.load(File.self, from: "rfc4226-hotp")
        #expect(file.vectors.count == 10)
        for row in file.vectors {
            let code = HOTP.code(
                secret: Array(file.secretASCII.utf8), counter: row.counter, digits: file.digits,
                algorithm: file.algorithm)
            #expect(code == row.code, "counter \(row.counter)")
        }
    }

    @Test("codes are zero-padded to the requested length")
    func zeroPadding() {
        // RFC 6238's SHA-1 code at T = 37037036 is 07081804: the leading zero must survive.
        let code = HOTP.code(secret: Array("12345678901234567890".utf8), counter: 37_037_036, digits: 8)
        #expect(code == "07081804")
    }
}
