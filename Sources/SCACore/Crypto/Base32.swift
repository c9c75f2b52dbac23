/// Base32 (RFC 4648 §6, alphabet `A-Z 2-7`): the form in which authenticator apps take a
/// TOTP seed.
package enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Encodes bytes as upper-case Base32 without `=` padding, as authenticator apps expect.
    package static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 8 + 4) / 5)
        var accumulator: UInt32 = 0
        var bitCount = 0
        for byte in bytes {
            accumulator = accumulator << 8 | UInt32(byte)
            bitCount += 8
            while bitCount >= 5 {
                bitCount -= 5
                output.append(alphabet[Int(accumulator >> UInt32(bitCount) & 0x1F)])
            }
            accumulator &= (1 << UInt32(bitCount)) - 1
        }
        if bitCount > 0 {
            output.append(alphabet[Int(accumulator << UInt32(5 - bitCount) & 0x1F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes Base32, upper- or lower-case, with or without trailing `=` padding.
    ///
    /// Returns nil for any other character (whitespace included), for a length that no byte
    /// string encodes to, and for padding that does not complete a block of 8. Bits after the
    /// last whole byte are ignored rather than rejected: some services generate seeds as random
    /// Base32 characters, and their authenticator apps accept them.
    package static func decode(_ string: String) -> [UInt8]? {
        var text = Array(string.utf8)
        var padding = 0
        while text.last == UInt8(ascii: "=") {
            text.removeLast()
            padding += 1
        }
        // Lengths 1, 3 and 6 (mod 8) leave a whole character with no byte to carry.
        guard [0, 2, 4, 5, 7].contains(text.count % 8) else { return nil }
        if padding > 0 {
            guard text.count % 8 != 0, (text.count + padding) % 8 == 0 else { return nil }
        }
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 5 / 8)
        var accumulator: UInt32 = 0
        var bitCount = 0
        for character in text {
            guard let value = value(of: character) else { return nil }
            accumulator = accumulator << 5 | UInt32(value)
            bitCount += 5
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
                accumulator &= (1 << UInt32(bitCount)) - 1
            }
        }
        return output
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): character - UInt8(ascii: "2") + 26
        default: nil
        }
    }
}
