/// The little CBOR the tests' software authenticator writes: unsigned and negative integers,
/// byte and text strings, maps (definite lengths, keys in the order given).
public indirect enum TestCBOR {
    case int(Int64)
    case bytes([UInt8])
    case text(String)
    case map([(TestCBOR, TestCBOR)])

    public var encoded: [UInt8] {
        switch self {
        case .int(let value):
            return value >= 0 ? Self.head(0, UInt64(value)) : Self.head(1, UInt64(-1 - value))
        case .bytes(let bytes):
            return Self.head(2, UInt64(bytes.count)) + bytes
        case .text(let text):
            return Self.head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .map(let entries):
            return Self.head(5, UInt64(entries.count)) + entries.flatMap { $0.0.encoded + $0.1.encoded }
        }
    }

    private static func head(_ major: UInt8, _ value: UInt64) -> [UInt8] {
        let type = major << 5
        switch value {
        case 0..<24: return [type | UInt8(value)]
        case 24..<0x100: return [type | 24, UInt8(value)]
        case 0x100..<0x1_0000: return [type | 25] + bigEndian(value, count: 2)
        case 0x1_0000..<0x1_0000_0000: return [type | 26] + bigEndian(value, count: 4)
        default: return [type | 27] + bigEndian(value, count: 8)
        }
    }

    public static func bigEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(count - 1 - $0))) }
    }
}
