import SCACore

/// One token, one form: an ECDSA signature (r, s) verifies as well as (r, n − s), so without a
/// rule every token would have a twin with another last segment that also verifies. Tokens are
/// signed with the low `s` (at most n/2) and a signature with a high `s`, or one whose
/// base64url is not the canonical encoding of its 64 bytes, is refused before verification.
enum ES256SignatureForm {
    /// The order n of the P-256 group, big-endian.
    static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]
    /// ⌊n/2⌋, big-endian: the largest `s` accepted.
    static let halfOrder: [UInt8] = [
        0x7F, 0xFF, 0xFF, 0xFF, 0x80, 0x00, 0x00, 0x00, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xDE, 0x73, 0x7D, 0x56, 0xD3, 0x8B, 0xCF, 0x42, 0x79, 0xDC, 0xE5, 0x61, 0x7E, 0x31, 0x92, 0xA8,
    ]

    /// Whether a compact JWT's signature segment is 64 canonically encoded bytes with a low `s`.
    static func isCanonical(token: String) -> Bool {
        // The text after the last dot, found on the bytes (splitting a whole token into
        // Strings cost more than the check).
        let utf8 = token.utf8
        let start = utf8.lastIndex(of: UInt8(ascii: ".")).map(utf8.index(after:)) ?? utf8.startIndex
        let segment = String(token[start...])
        guard let signature = Base64URL.decode(segment), signature.count == 64, Base64URL.encode(signature) == segment
        else { return false }
        return !isGreater(Array(signature[32...]), than: halfOrder)
    }

    /// A raw signature `r || s` with `s` replaced by n − s when it is high; unchanged otherwise.
    static func lowS(_ signature: [UInt8]) -> [UInt8] {
        guard signature.count == 64 else { return signature }
        let s = Array(signature[32...])
        guard isGreater(s, than: halfOrder) else { return signature }
        return Array(signature[..<32]) + subtract(s, from: order)
    }

    /// Big-endian comparison of two numbers of the same length.
    static func isGreater(_ a: [UInt8], than b: [UInt8]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x > y }
        return false
    }

    /// `minuend − subtrahend`, big-endian, for subtrahend ≤ minuend of the same length.
    static func subtract(_ subtrahend: [UInt8], from minuend: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: minuend.count)
        var borrow = 0
        for index in stride(from: minuend.count - 1, through: 0, by: -1) {
            var difference = Int(minuend[index]) - Int(subtrahend[index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            result[index] = UInt8(difference)
        }
        return result
    }
}
