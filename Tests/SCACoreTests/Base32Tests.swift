import Testing
import SCACore

@Suite("Base32 (RFC 4648 §6)")
struct Base32Tests {
    @Test("§10 vectors both ways; encoding drops the padding, decoding takes it or not")
    func rfcVectors() throws {
        let rows = try BaseEncodingVectors.load()
        #expect(rows.count == 7)
        for row in rows {
            let bytes = Array(row.ascii.utf8)
            let unpadded = String(row.base32.prefix { $0 != "=" })
            #expect(Base32.encode(bytes) == unpadded)
            #expect(Base32.decode(row.base32) == bytes, "padded \(row.base32)")
            #expect(Base32.decode(unpadded) == bytes, "unpadded \(unpadded)")
            #expect(Base32.decode(row.base32.lowercased()) == bytes, "lower-case \(row.base32)")
        }
    }

    @Test("round trip of every byte value and many lengths")
    func roundTrip() {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base32.decode(Base32.encode(bytes)) == bytes)
        }
        let all = (0...255).map(UInt8.init)
        #expect(Base32.decode(Base32.encode(all)) == all)
    }

    @Test(
        "garbage is refused",
        arguments: [
            "MZXW6YT1",  // '1' is not in the alphabet
            "MZXW 6YTB", "MZXW6YTB\n", "MZXW6YT=B", "=MZXW6YTB", "MZXW6YTB========",
            "M", "MZX", "MZXW6Y",  // lengths no byte string encodes to
            "MY=", "MY=======",  // padding that does not complete a block
            "MZXW6YT!", "MZXW6YTÉ", "MZXW6YT8", "MZXW6YT0",
        ])
    func garbage(text: String) {
        #expect(Base32.decode(text) == nil)
    }
}
