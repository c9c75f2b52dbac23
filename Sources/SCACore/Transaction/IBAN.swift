/// International Bank Account Numbers (ISO 13616).
package enum IBAN {
    /// Registered lengths per country (SWIFT IBAN registry). Countries not listed are only held
    /// to the general 15...34, so a valid IBAN of an unlisted country is not refused.
    static let lengths: [String: Int] = [
        // SEPA
        "AD": 24, "AL": 28, "AT": 20, "BE": 16, "BG": 22, "CH": 21, "CY": 28, "CZ": 24, "DE": 22,
        "DK": 18, "EE": 20, "ES": 24, "FI": 18, "FR": 27, "GB": 22, "GI": 23, "GR": 27, "HR": 21,
        "HU": 28, "IE": 22, "IS": 26, "IT": 27, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27,
        "MD": 24, "ME": 22, "MK": 19, "MT": 31, "NL": 18, "NO": 15, "PL": 28, "PT": 25, "RO": 24,
        "RS": 22, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "VA": 22,
        // others
        "AE": 23, "BA": 20, "FO": 18, "GL": 18, "IL": 23, "SA": 24, "TR": 26, "UA": 29, "XK": 20,
    ]

    static let lengthRange = 15...34

    /// Upper-cases and removes spaces; returns the IBAN when it is 15...34 alphanumerics, starts
    /// with a 2-letter country code whose registered length matches (countries not in the table:
    /// length only checked to be 15...34), and passes the ISO 7064 mod 97-10 check (== 1).
    /// nil otherwise.
    ///
    /// Also refused: check digits other than two digits, and 00, 01 and 99, which ISO 13616
    /// never issues (01 and 99 would pass mod 97 as aliases of 98 and 02).
    package static func normalized(_ text: String) -> String? {
        var characters: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "):
                continue
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                characters.append(byte - 0x20)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                characters.append(byte)
            default:
                // ASCII only: Unicode upper-casing would turn `ı` into `I`.
                return nil
            }
            guard characters.count <= lengthRange.upperBound else { return nil }
        }
        guard lengthRange.contains(characters.count),
            characters[0..<2].allSatisfy(isLetter), characters[2..<4].allSatisfy(isDigit)
        else { return nil }
        let iban = String(decoding: characters, as: UTF8.self)
        if let length = lengths[String(iban.prefix(2))], length != characters.count { return nil }
        let checkDigits = Int(characters[2] - UInt8(ascii: "0")) * 10 + Int(characters[3] - UInt8(ascii: "0"))
        guard (2...98).contains(checkDigits), mod97(characters[4...] + characters[0..<4]) == 1 else { return nil }
        return iban
    }

    /// ISO 7064 mod 97-10 over the IBAN rearranged, letters as 10...35, computed piecewise so
    /// that no 30-digit number is ever built.
    private static func mod97<Characters: Sequence>(_ characters: Characters) -> Int
    where Characters.Element == UInt8 {
        var remainder = 0
        for character in characters {
            if isDigit(character) {
                remainder = (remainder * 10 + Int(character - UInt8(ascii: "0"))) % 97
            } else {
                remainder = (remainder * 100 + Int(character - UInt8(ascii: "A")) + 10) % 97
            }
        }
        return remainder
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}
