/// BLAKE2b (RFC 7693), unkeyed, with a digest of 1 to 64 bytes: the hash inside Argon2.
///
/// Written here because swift-crypto does not offer it. Argon2 calls it only a few times per
/// hash (its memory filling uses its own round function), so this favours plainness over speed.
package enum BLAKE2b {
    /// The SHA-512 initialisation vector, which BLAKE2b shares.
    private static let initializationVector: [UInt64] = [
        0x6A09_E667_F3BC_C908, 0xBB67_AE85_84CA_A73B, 0x3C6E_F372_FE94_F82B, 0xA54F_F53A_5F1D_36F1,
        0x510E_527F_ADE6_82D1, 0x9B05_688C_2B3E_6C1F, 0x1F83_D9AB_FB41_BD6B, 0x5BE0_CD19_137E_2179,
    ]

    /// The order in which each round reads the sixteen message words (rounds 10 and 11 reuse
    /// the first two rows).
    private static let sigma: [[Int]] = [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
        [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
        [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
        [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
        [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
        [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
        [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
        [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
        [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    ]

    private static let blockByteCount = 128

    /// The digest of `message`, `outputByteCount` (1...64) bytes long.
    package static func hash(_ message: [UInt8], outputByteCount: Int) -> [UInt8] {
        precondition((1...64).contains(outputByteCount), "BLAKE2b digests are 1 to 64 bytes")
        var state = initializationVector
        // Parameter block: digest length, no key, fanout 1, depth 1 (sequential mode).
        state[0] ^= 0x0101_0000 ^ UInt64(outputByteCount)

        // Every block but the last is compressed as not final; the last one (possibly empty,
        // for an empty message) is zero-padded and compressed with the final flag.
        var offset = 0
        while message.count - offset > blockByteCount {
            compress(&state, message[offset..<offset + blockByteCount], byteCounter: UInt64(offset + blockByteCount), isLast: false)
            offset += blockByteCount
        }
        var last = [UInt8](message[offset...])
        let lastByteCount = last.count
        last += [UInt8](repeating: 0, count: blockByteCount - lastByteCount)
        compress(&state, last[...], byteCounter: UInt64(offset + lastByteCount), isLast: true)

        var digest: [UInt8] = []
        digest.reserveCapacity(64)
        for word in state {
            for byte in 0..<8 {
                digest.append(UInt8(truncatingIfNeeded: word >> UInt64(8 * byte)))
            }
        }
        return Array(digest.prefix(outputByteCount))
    }

    /// The compression function F: mixes one 128-byte block into the state. `byteCounter` is
    /// the number of message bytes hashed so far, this block included. Messages here are far
    /// below 2^64 bytes, so the counter's high word stays zero.
    private static func compress(_ state: inout [UInt64], _ block: ArraySlice<UInt8>, byteCounter: UInt64, isLast: Bool) {
        var message = [UInt64](repeating: 0, count: 16)
        for index in 0..<16 {
            let start = block.startIndex + 8 * index
            for byte in 0..<8 {
                message[index] |= UInt64(block[start + byte]) << UInt64(8 * byte)
            }
        }
        var v = state + initializationVector
        v[12] ^= byteCounter
        if isLast {
            v[14] = ~v[14]
        }
        for round in 0..<12 {
            let s = sigma[round % 10]
            mix(&v, 0, 4, 8, 12, message[s[0]], message[s[1]])
            mix(&v, 1, 5, 9, 13, message[s[2]], message[s[3]])
            mix(&v, 2, 6, 10, 14, message[s[4]], message[s[5]])
            mix(&v, 3, 7, 11, 15, message[s[6]], message[s[7]])
            mix(&v, 0, 5, 10, 15, message[s[8]], message[s[9]])
            mix(&v, 1, 6, 11, 12, message[s[10]], message[s[11]])
            mix(&v, 2, 7, 8, 13, message[s[12]], message[s[13]])
            mix(&v, 3, 4, 9, 14, message[s[14]], message[s[15]])
        }
        for index in 0..<8 {
            state[index] ^= v[index] ^ v[index + 8]
        }
    }

    /// The mixing function G (RFC 7693 §3.1).
    private static func mix(_ v: inout [UInt64], _ a: Int, _ b: Int, _ c: Int, _ d: Int, _ x: UInt64, _ y: UInt64) {
        v[a] = v[a] &+ v[b] &+ x
        v[d] = rotateRight(v[d] ^ v[a], 32)
        v[c] = v[c] &+ v[d]
        v[b] = rotateRight(v[b] ^ v[c], 24)
        v[a] = v[a] &+ v[b] &+ y
        v[d] = rotateRight(v[d] ^ v[a], 16)
        v[c] = v[c] &+ v[d]
        v[b] = rotateRight(v[b] ^ v[c], 63)
    }

    @inline(__always)
    static func rotateRight(_ value: UInt64, _ count: UInt64) -> UInt64 {
        value >> count | value << (64 - count)
    }
}
