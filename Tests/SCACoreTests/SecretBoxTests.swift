import Crypto
import Testing
import SCACore

@Suite("SecretBox")
struct SecretBoxTests {
    static let box = SecretBox(key: SymmetricKey(data: [UInt8](repeating: 7, count: 32)))
    static let seed = Array("12345678901234567890".utf8)

    @Test("seal then open gives the plaintext back; the layout is nonce || ciphertext || tag")
    func roundTrip() throws {
        let sealed = try Self.box.seal(Self.seed, context: "totp-seed|usr_1")
        #expect(sealed.count == 12 + Self.seed.count + 16)
        #expect(try Self.box.open(sealed, context: "totp-seed|usr_1") == Self.seed)
        #expect(try Self.box.open(Self.box.seal([], context: "empty"), context: "empty") == [])
    }

    @Test("each seal uses a fresh nonce")
    func freshNonce() throws {
        let first = try Self.box.seal(Self.seed, context: "c")
        let second = try Self.box.seal(Self.seed, context: "c")
        #expect(first != second)
        #expect(first.prefix(12) != second.prefix(12))
    }

    @Test("any flipped bit is detected")
    func tamper() throws {
        let sealed = try Self.box.seal(Self.seed, context: "c")
        for index in sealed.indices {
            var tampered = sealed
            tampered[index] ^= 0x01
            #expect(throws: SecretBoxError.cannotOpen) { try Self.box.open(tampered, context: "c") }
        }
        #expect(throws: SecretBoxError.cannotOpen) { try Self.box.open(Array(sealed.dropLast()), context: "c") }
        #expect(throws: SecretBoxError.cannotOpen) { try Self.box.open(Array(sealed.prefix(20)), context: "c") }
        #expect(throws: SecretBoxError.cannotOpen) { try Self.box.open([], context: "c") }
    }

    @Test("a wrong context or a wrong key fails")
    func wrongContextOrKey() throws {
        let sealed = try Self.box.seal(Self.seed, context: "totp-seed|usr_1")
        #expect(throws: SecretBoxError.cannotOpen) { try Self.box.open(sealed, context: "signing-key|usr_1") }
        #expect(throws: SecretBoxError.cannotOpen) { try Self.box.open(sealed, context: "totp-seed|usr_2") }
        let other = SecretBox(key: SymmetricKey(data: [UInt8](repeating: 8, count: 32)))
        #expect(throws: SecretBoxError.cannotOpen) { try other.open(sealed, context: "totp-seed|usr_1") }
    }

    @Test("mac: deterministic, 32 bytes, separated by purpose and key")
    func mac() throws {
        let code = Array("123456".utf8)
        let mac = Self.box.mac(code, purpose: "otp")
        #expect(mac.count == 32)
        #expect(mac == Self.box.mac(code, purpose: "otp"))
        #expect(mac != Self.box.mac(code, purpose: "refresh-token"))
        #expect(mac != Self.box.mac(Array("123457".utf8), purpose: "otp"))
        #expect(mac != SecretBox(key: SymmetricKey(data: [UInt8](repeating: 8, count: 32))).mac(code, purpose: "otp"))

        // The documented construction: HMAC-SHA256 under HKDF-SHA256(key, info: "sca-v1|otp").
        let subkey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: [UInt8](repeating: 7, count: 32)),
            info: Array("sca-v1|otp".utf8), outputByteCount: 32)
        #expect(mac == Array(HMAC<SHA256>.authenticationCode(for: code, using: subkey)))
    }
}
