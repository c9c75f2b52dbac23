/// 16-bit cyclic redundancy checks.
package enum CRC16 {
    /// The reflected form of poly 0x8005, so the register shifts right and bytes enter LSB first.
    private static let table: [UInt16] = (0...255).map { index in
        var value = UInt16(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? (value >> 1) ^ 0xA001 : value >> 1
        }
        return value
    }

    /// CRC-16/ARC: poly 0x8005 reflected (0xA001), init 0, no final xor. check("123456789") == 0xBB3D.
    ///
    /// Being linear (init 0, no final xor), it detects every error burst of up to 16 bits,
    /// which covers every single mistyped Base32 character of an activation code.
    package static func arc<Bytes: Sequence>(_ bytes: Bytes) -> UInt16 where Bytes.Element == UInt8 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc = (crc >> 8) ^ table[Int((crc ^ UInt16(byte)) & 0xFF)]
        }
        return crc
    }
}
