import Testing
import SCACore

@Suite("Base64URL (RFC 4648 §5, unpadded)")
struct Base64URLTests {
    @Test("§10 vectors, mapped to the URL alphabet without padding")
    func rfcVectors() throws {
        for row in try BaseEncodingVectors.load() {
            let bytes = Array(row.ascii.utf8)
            let url = String(row.base64.prefix { $0 != "=" })
            #expect(Base64URL.encode(bytes) == url)
            #expect(Base64URL.decode(url) == bytes)
        }
    }

    @Test("the URL alphabet's last two characters")
    func urlAlphabet() {
        // 0xFB 0xFF 0xBF is "+/+/" in the standard alphabet.
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
    }

    @Test("round trip of many lengths")
    func roundTrip() {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 5) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test(
        "padding, the standard alphabet, whitespace, bad lengths and non-canonical bits are refused",
        arguments: [
            "Zg==", "Zm8=",  // padding
            "+/+/", "-_+_", "-_/_",  // standard alphabet
            "Zm9v ", " Zm9v", "Zm\n9v", "Zm9v\t",  // whitespace
            "Z", "Zm9vY",  // count % 4 == 1
            "Zh", "Zm9", "Zm9vYh",  // bits set after the last byte ("Zg" and "Zm8" are canonical)
            "Zm9v!", "Zm9vé",
        ])
    func refused(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("the empty string is the empty byte string")
    func empty() {
        #expect(Base64URL.encode([UInt8]()) == "")
        #expect(Base64URL.decode("") == [])
    }
}
