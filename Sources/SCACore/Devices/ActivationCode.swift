/// A one-time code that binds a new device to a user, typed or scanned on the device.
///
/// 10 random bytes + CRC-16/ARC (big-endian) = 12 bytes, RFC 4648 Base32 without padding
/// (20 chars), 4 groups of 5 joined by "-". The checksum lets the client and server refuse a
/// mistyped code before it costs one of the code's limited tries.
package struct ActivationCode: Sendable, Equatable, Hashable, CustomStringConvertible {
    static let randomByteCount = 10
    static let byteCount = randomByteCount + 2
    static let characterCount = 20
    static let groupLength = 5

    /// The 12 bytes: 10 random, then their CRC-16/ARC, big-endian.
    package let bytes: [UInt8]

    private init(checkedBytes: [UInt8]) {
        bytes = checkedBytes
    }

    /// A fresh code from `random`'s next 10 bytes.
    package static func generate(using random: any RandomSource) -> ActivationCode {
        var bytes = Array(random.bytes(randomByteCount).prefix(randomByteCount))
        // A RandomSource that returns short is broken; pad rather than crash, the CRC still holds.
        while bytes.count < randomByteCount { bytes.append(0) }
        let crc = CRC16.arc(bytes)
        bytes += [UInt8(crc >> 8), UInt8(crc & 0xFF)]
        return ActivationCode(checkedBytes: bytes)
    }

    /// Parses user input: case-insensitive, ignores spaces and dashes anywhere, must be 20 Base32
    /// chars that decode to 12 bytes whose last 2 are the CRC-16/ARC of the first 10. nil otherwise.
    ///
    /// The 20th character carries 1 data bit and 4 unused bits; these must be zero (the canonical
    /// encoding), otherwise 15 mistyped last characters would decode to the same valid bytes.
    package init?(_ text: String) {
        var characters: [UInt8] = []
        characters.reserveCapacity(Self.characterCount)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "-"):
                continue
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                characters.append(byte - 0x20)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "2")...UInt8(ascii: "7"):
                characters.append(byte)
            default:
                // Only ASCII is looked at, so no Unicode case mapping (`ı` → `I`) sneaks a letter in.
                return nil
            }
            // Stop early on long input rather than collect it.
            guard characters.count <= Self.characterCount else { return nil }
        }
        guard characters.count == Self.characterCount else { return nil }
        let canonical = String(decoding: characters, as: UTF8.self)
        guard let bytes = Base32.decode(canonical), bytes.count == Self.byteCount,
            Base32.encode(bytes) == canonical
        else { return nil }
        let crc = CRC16.arc(bytes.prefix(Self.randomByteCount))
        guard bytes[Self.randomByteCount] == UInt8(crc >> 8), bytes[Self.randomByteCount + 1] == UInt8(crc & 0xFF)
        else { return nil }
        self.init(checkedBytes: bytes)
    }

    /// The canonical form, `XXXXX-XXXXX-XXXXX-XXXXX`, as shown to the user and signed by the device.
    package var description: String {
        let characters = Array(Base32.encode(bytes))
        return stride(from: 0, to: characters.count, by: Self.groupLength).map { start in
            String(characters[start..<min(start + Self.groupLength, characters.count)])
        }.joined(separator: "-")
    }

    /// The first group (5 chars, 25 bits): a non-secret key under which the store finds the code,
    /// so that the full code can be compared in constant time against one record.
    package var lookupID: String {
        String(Base32.encode(bytes).prefix(Self.groupLength))
    }
}
