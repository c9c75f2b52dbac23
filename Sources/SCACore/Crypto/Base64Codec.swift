/// The unpadded Base64 machinery shared by ``Base64URL`` (RFC 4648 §5) and the PHC strings of
/// ``PasswordHasher`` (standard alphabet, RFC 4648 §4, without padding).
///
/// Decoding is strict so that every byte string has exactly one accepted text form: a MAC,
/// digest or signature cannot be re-spelled to slip past a comparison of strings.
struct Base64Codec: Sendable {
    /// RFC 4648 §4: `A-Z a-z 0-9 + /`.
    static let standard = Base64Codec(lastTwo: (UInt8(ascii: "+"), UInt8(ascii: "/")))
    /// RFC 4648 §5: `A-Z a-z 0-9 - _`.
    static let url = Base64Codec(lastTwo: (UInt8(ascii: "-"), UInt8(ascii: "_")))
    /// bcrypt's own alphabet, `./A-Za-z0-9`, in the same bit order.
    static let bcrypt = Base64Codec(alphabet: Array("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8))

    private let alphabet: [UInt8]
    /// Maps an ASCII byte to its 6-bit value, or 0xFF when it is not in the alphabet.
    private let reverse: [UInt8]

    private init(lastTwo: (UInt8, UInt8)) {
        var alphabet = Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
        alphabet += Array(UInt8(ascii: "a")...UInt8(ascii: "z"))
        alphabet += Array(UInt8(ascii: "0")...UInt8(ascii: "9"))
        self.init(alphabet: alphabet + [lastTwo.0, lastTwo.1])
    }

    private init(alphabet: [UInt8]) {
        var reverse = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() {
            reverse[Int(character)] = UInt8(index)
        }
        self.alphabet = alphabet
        self.reverse = reverse
    }

    func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            output.append(alphabet[Int(chunk >> 6 & 0x3F)])
            output.append(alphabet[Int(chunk & 0x3F)])
            index += 3
        }
        switch input.count - index {
        case 1:
            let chunk = UInt32(input[index]) << 16
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
        case 2:
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            output.append(alphabet[Int(chunk >> 6 & 0x3F)])
        default:
            break
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes unpadded text; nil on padding, whitespace, any character outside the alphabet,
    /// an impossible length, or set bits after the last whole byte (a non-canonical spelling).
    func decode(_ string: String) -> [UInt8]? {
        let text = Array(string.utf8)
        guard text.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bitCount = 0
        for character in text {
            let value = reverse[Int(character)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
                accumulator &= (1 << UInt32(bitCount)) - 1
            }
        }
        // Leftover bits (2 or 4) must be zero, otherwise two texts would decode to the same bytes.
        guard accumulator == 0 else { return nil }
        return output
    }
}
