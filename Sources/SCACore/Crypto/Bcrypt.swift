/// bcrypt (Provos and Mazières, 1999): the expensive key schedule of Blowfish (EksBlowfish)
/// encrypting "OrpheanBeholderScryDoubt" 64 times, behind `$2a$`, `$2b$` and `$2y$` strings.
///
/// Written here because swift-crypto does not offer it. The password is the `$2b$` key: its
/// first 72 bytes, then a NUL byte, repeated as often as the key schedule needs. `$2a$` and
/// `$2y$` hashes are computed the same way, which matches what wrote them for every password
/// a login can send (UTF-8 text):
/// - OpenBSD's `$2a$` before `$2b$` kept the key's length in a byte, which wrapped around
///   for passwords of 255 bytes or more: only those hash differently.
/// - crypt_blowfish's `$2a$` (PHP before `$2y$`, glibc-based systems) deviates on purpose
///   when its old sign-extension bug (`$2x$`, refused here) would have given the same key
///   from other bytes; that takes a 0xFF byte before a byte ≥ 0x80, and UTF-8 never holds
///   0xFF.
/// - jBCrypt, Spring Security, PHP's `$2y$` and Python's bcrypt have no such quirk.
package enum Bcrypt {
    /// Bytes of the password that bcrypt reads; the rest are ignored.
    static let maximumPasswordByteCount = 72
    static let saltByteCount = 16
    /// The 24 bytes of ciphertext less the last one, which bcrypt strings omit.
    static let hashByteCount = 23
    static let costs = 4...31

    /// "OrpheanBeholderScryDoubt" as six big-endian words.
    private static let plaintext: [UInt32] = [0x4F72_7068, 0x6561_6E42, 0x6568_6F6C, 0x6465_7253, 0x6372_7944, 0x6F75_6274]

    /// The 23 bytes that a bcrypt string encodes after its salt.
    ///
    /// - Parameters:
    ///   - password: The password's bytes, as given (no normalisation); bytes after the 72nd
    ///     are ignored.
    ///   - salt: 16 bytes.
    ///   - cost: log2 of the key schedule's rounds, 4...31.
    package static func hash(password: [UInt8], salt: [UInt8], cost: Int) -> [UInt8] {
        precondition(salt.count == saltByteCount && costs.contains(cost), "bcrypt takes a 16-byte salt and a cost of 4...31")
        let key = Array(password.prefix(maximumPasswordByteCount)) + [0]
        // The key schedule reads the key and the salt as endless streams of big-endian words;
        // 18 words of each are all it ever reads at once.
        let keyWords = cyclicWords(key, count: 18)
        let saltWords = cyclicWords(salt, count: 18)

        var state = initialSubkeys + initialSBoxes
        var block = plaintext
        state.withUnsafeMutableBufferPointer { buffer in
            let subkeys = buffer.baseAddress!
            let sBoxes = subkeys + 18
            expandKey(subkeys, sBoxes, key: keyWords, salt: saltWords)
            for _ in 0..<(1 << cost) {
                expandKey(subkeys, sBoxes, key: keyWords, salt: nil)
                expandKey(subkeys, sBoxes, key: saltWords, salt: nil)
            }
            for _ in 0..<64 {
                for pair in 0..<3 {
                    var left = block[2 * pair]
                    var right = block[2 * pair + 1]
                    encrypt(&left, &right, subkeys, sBoxes)
                    block[2 * pair] = left
                    block[2 * pair + 1] = right
                }
            }
        }
        var bytes: [UInt8] = []
        for word in block {
            bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) }
        }
        return Array(bytes.prefix(hashByteCount))
    }

    /// `count` big-endian words read from `bytes` repeated end to end.
    private static func cyclicWords(_ bytes: [UInt8], count: Int) -> [UInt32] {
        var position = 0
        return (0..<count).map { _ in
            var word: UInt32 = 0
            for _ in 0..<4 {
                word = word << 8 | UInt32(bytes[position])
                position = (position + 1) % bytes.count
            }
            return word
        }
    }

    /// EksBlowfish's ExpandKey: XORs the key into the subkeys, then replaces the subkeys and
    /// S-boxes, two words at a time, with the encryption of the running block, which is XORed
    /// with the next two salt words first when there is a salt.
    private static func expandKey(
        _ subkeys: UnsafeMutablePointer<UInt32>, _ sBoxes: UnsafeMutablePointer<UInt32>, key: [UInt32], salt: [UInt32]?
    ) {
        for index in 0..<18 {
            subkeys[index] ^= key[index]
        }
        var left: UInt32 = 0
        var right: UInt32 = 0
        var saltIndex = 0
        func next(into target: UnsafeMutablePointer<UInt32>) {
            if let salt {
                // The salt stream is 16 bytes long: four words.
                left ^= salt[saltIndex]
                right ^= salt[saltIndex + 1]
                saltIndex = (saltIndex + 2) % 4
            }
            encrypt(&left, &right, subkeys, sBoxes)
            target[0] = left
            target[1] = right
        }
        for index in stride(from: 0, to: 18, by: 2) {
            next(into: subkeys + index)
        }
        for index in stride(from: 0, to: 4 * 256, by: 2) {
            next(into: sBoxes + index)
        }
    }

    /// One Blowfish encryption of the block (`left`, `right`): 16 Feistel rounds.
    @inline(__always)
    private static func encrypt(
        _ left: inout UInt32, _ right: inout UInt32, _ subkeys: UnsafeMutablePointer<UInt32>,
        _ sBoxes: UnsafeMutablePointer<UInt32>
    ) {
        @inline(__always)
        func f(_ x: UInt32) -> UInt32 {
            let a = sBoxes[Int(x >> 24)]
            let b = sBoxes[256 + Int(x >> 16 & 0xFF)]
            let c = sBoxes[512 + Int(x >> 8 & 0xFF)]
            let d = sBoxes[768 + Int(x & 0xFF)]
            return ((a &+ b) ^ c) &+ d
        }
        var l = left ^ subkeys[0]
        var r = right
        for round in stride(from: 1, to: 17, by: 2) {
            r ^= f(l) ^ subkeys[round]
            l ^= f(r) ^ subkeys[round + 1]
        }
        left = r ^ subkeys[17]
        right = l
    }

    // MARK: - bcrypt's base64

    /// `bytes` in bcrypt's base64 (its own alphabet, no padding).
    static func encode(_ bytes: [UInt8]) -> String {
        Base64Codec.bcrypt.encode(bytes)
    }

    /// The bytes of bcrypt base64 text, or nil on a character outside the alphabet, an
    /// impossible length or set bits after the last whole byte. The implementations that write
    /// bcrypt strings never set those bits, and compare whole strings when verifying, so a
    /// string with them set would not have verified where it came from either.
    static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        Base64Codec.bcrypt.decode(String(text))
    }
}
