/// Numeric one-time codes sent by SMS or e-mail.
package enum OneTimeCode {
    /// A code of `digits` decimal digits, each digit uniform.
    ///
    /// Each digit comes from one random byte, and bytes of 250 and above are drawn again
    /// (rejection sampling): `byte % 10` over all 256 values would make 0 to 5 likelier.
    ///
    /// - Parameters:
    ///   - digits: Length of the code.
    ///   - random: The source of randomness; ``SystemRandom`` outside tests.
    /// - Precondition: `digits` is positive.
    package static func generate(digits: Int = 6, using random: any RandomSource) -> String {
        precondition(digits > 0, "a one-time code needs at least one digit")
        var code: [UInt8] = []
        code.reserveCapacity(digits)
        while code.count < digits {
            // Ask for a little more than needed: about 2 % of bytes are rejected.
            for byte in random.bytes(digits - code.count + 2) where byte < 250 && code.count < digits {
                code.append(UInt8(ascii: "0") + byte % 10)
            }
        }
        return String(decoding: code, as: UTF8.self)
    }
}
