import Testing
import SCACore

@Suite("IBAN (ISO 13616, mod 97-10)")
struct IBANTests {
    struct Examples: Decodable {
        let ibans: [String]
    }

    static let common = [
        "FR7630006000011234567890189", "DE89370400440532013000", "GB82WEST12345698765432", "NL91ABNA0417164300",
        "BE68539007547034", "CH9300762011623852957",
    ]

    @Test("common examples, compact, grouped by 4, lower case", arguments: common)
    func valid(iban: String) {
        #expect(IBAN.normalized(iban) == iban)
        let grouped = stride(from: 0, to: iban.count, by: 4).map { start in
            String(iban.dropFirst(start).prefix(4))
        }.joined(separator: " ")
        #expect(IBAN.normalized(grouped) == iban, "\(grouped)")
        #expect(IBAN.normalized(grouped.lowercased()) == iban)
        #expect(IBAN.normalized(" " + iban.lowercased() + "  ") == iban)
    }

    @Test("one published example per country of the length table")
    func everyCountry() throws {
        let examples = try Vector.load(Examples.self, from: "iban-examples").ibans
        #expect(examples.count >= 50)
        for iban in examples {
            #expect(IBAN.normalized(iban) == iban, "\(iban)")
        }
    }

    @Test("changing any one character is detected", arguments: common)
    func singleSubstitution(iban: String) {
        let characters = Array(iban)
        for position in characters.indices {
            let replacements: [Character] =
                characters[position].isNumber ? Array("0123456789") : Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            for replacement in replacements where replacement != characters[position] {
                var changed = characters
                changed[position] = replacement
                #expect(IBAN.normalized(String(changed)) == nil, "\(String(changed))")
            }
        }
    }

    @Test("swapping two adjacent characters is detected", arguments: common)
    func adjacentSwap(iban: String) {
        let characters = Array(iban)
        for position in 0..<characters.count - 1 where characters[position] != characters[position + 1] {
            var changed = characters
            changed.swapAt(position, position + 1)
            #expect(IBAN.normalized(String(changed)) == nil, "\(String(changed))")
        }
    }

    @Test("a length other than the country's is refused even when mod 97 passes")
    func wrongCountryLength() {
        // DE (22) with one more account digit, check digits recomputed so only the length is wrong.
        #expect(IBAN.normalized("DE" + checkDigits("DE", "3704004405320130001") + "3704004405320130001") == nil)
        // The same bank account as BE (16) under a 22-character country code.
        #expect(IBAN.normalized("GB" + checkDigits("GB", "539007547034") + "539007547034") == nil)
        // Dropping the last digit of a French IBAN.
        #expect(IBAN.normalized("FR763000600001123456789018") == nil)
        // A country not in the table: only 15...34 applies, mod 97 still does.
        let unlisted = "ZZ" + checkDigits("ZZ", "12345678901") + "12345678901"
        #expect(IBAN.normalized(unlisted) == unlisted)
        let tooShort = "ZZ" + checkDigits("ZZ", "1234567890") + "1234567890"
        #expect(tooShort.count == 14 && IBAN.normalized(tooShort) == nil)
        let tooLong = "ZZ" + checkDigits("ZZ", String(repeating: "1", count: 31)) + String(repeating: "1", count: 31)
        #expect(tooLong.count == 35 && IBAN.normalized(tooLong) == nil)
    }

    @Test("check digits 01 and 99 pass mod 97 but are never issued")
    func aliasCheckDigits() {
        // Among Dutch-shaped IBANs, find one whose check digits are 98 and one whose are 02: the
        // real ones pass, their aliases (98 ≡ 01 and 02 ≡ 99 mod 97) are refused.
        var found98 = false
        var found02 = false
        for account in 1_000_000_000..<1_000_001_000 {
            let bban = "ABNA\(account)"
            let check = checkDigits("NL", bban)
            if check == "98" {
                #expect(IBAN.normalized("NL98" + bban) != nil)
                #expect(IBAN.normalized("NL01" + bban) == nil)
                found98 = true
            }
            if check == "02" {
                #expect(IBAN.normalized("NL02" + bban) != nil)
                #expect(IBAN.normalized("NL99" + bban) == nil)
                found02 = true
            }
        }
        #expect(found98 && found02)
    }

    @Test(
        "malformed input is refused",
        arguments: [
            "", "FR76", "FR76-3000-6000-0112-3456-7890-189", "FR76\t30006000011234567890189",
            "1R7630006000011234567890189", "FRX630006000011234567890189", "ÉR7630006000011234567890189",
            "FR7630006000011234567890189\u{00A0}", "fr76 3000 6000 0112 3456 7890 18ı",
            String(repeating: "1", count: 10_000),
        ])
    func malformed(text: String) {
        #expect(IBAN.normalized(text) == nil)
    }

    /// ISO 7064 mod 97-10 check digits, for building test IBANs.
    func checkDigits(_ country: String, _ bban: String) -> String {
        var remainder = 0
        for character in (bban + country + "00").uppercased() {
            if let digit = character.wholeNumberValue, character.isASCII {
                remainder = (remainder * 10 + digit) % 97
            } else if let ascii = character.asciiValue {
                remainder = (remainder * 100 + Int(ascii) - 55) % 97
            }
        }
        let check = 98 - remainder
        return check < 10 ? "0\(check)" : "\(check)"
    }
}
