/// HMAC-based one-time passwords (RFC 4226), the building block of ``TOTP``.
package enum HOTP {
    /// The largest number of digits a code can carry: dynamic truncation yields 31 bits.
    static let maximumDigits = 10

    /// The code for `counter`.
    ///
    /// - Parameters:
    ///   - secret: The shared key.
    ///   - counter: The moving factor, encoded big-endian as RFC 4226 §5.2 says.
    ///   - digits: Length of the code, 1 through 10; 6 and 8 are the usual ones.
    ///   - algorithm: The HMAC hash; RFC 4226 itself uses SHA-1.
    /// - Returns: The code in decimal, zero-padded on the left to `digits` characters.
    /// - Precondition: `digits` is in `1...10`.
    package static func code(
        secret: [UInt8], counter: UInt64, digits: Int = 6, algorithm: OTPAlgorithm = .sha1
    ) -> String {
        precondition((1...maximumDigits).contains(digits), "HOTP digits must be 1 through 10")
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
        let mac = algorithm.authenticationCode(for: message, key: secret)
        // Dynamic truncation (RFC 4226 §5.3): the low nibble of the last byte picks 4 bytes.
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let truncated = (UInt64(mac[offset]) & 0x7F) << 24
            | UInt64(mac[offset + 1]) << 16
            | UInt64(mac[offset + 2]) << 8
            | UInt64(mac[offset + 3])
        var modulus: UInt64 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(truncated % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }
}
