/// One PUK of a recovery sheet: 10 decimal digits, drawn uniformly, used once and in order.
///
/// Typed from paper, so it is digits only and forgives spaces and dashes. Its 33 bits are
/// never guessable within the recovery's lockout (5 tries before a block), and the code it
/// goes with carries the 80 bits that make the sheet unguessable.
package struct RecoveryPUK: Sendable, Equatable, Hashable, CustomStringConvertible {
    package static let digitCount = 10

    /// The 10 digits, as typed once canonical.
    package let digits: String

    private init(checkedDigits: String) {
        digits = checkedDigits
    }

    /// A fresh PUK from `random`, each digit uniform (bytes of 250 and above are drawn again,
    /// so no digit is likelier than another).
    package static func generate(using random: any RandomSource) -> RecoveryPUK {
        var digits = ""
        while digits.count < digitCount {
            for byte in random.bytes(digitCount) where byte < 250 && digits.count < digitCount {
                digits.append(Character(String(byte % 10)))
            }
        }
        return RecoveryPUK(checkedDigits: digits)
    }

    /// Parses user input: 10 ASCII digits, spaces and dashes ignored anywhere; nil otherwise.
    package init?(_ text: String) {
        var digits = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "-"): continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(Character(Unicode.Scalar(byte)))
            default: return nil
            }
            guard digits.count <= Self.digitCount else { return nil }
        }
        guard digits.count == Self.digitCount else { return nil }
        self.init(checkedDigits: digits)
    }

    /// Two groups of 5, as printed on the sheet: `12345-67890`.
    package var description: String {
        "\(digits.prefix(5))-\(digits.suffix(5))"
    }
}
