import Foundation
import SCACore
import Testing

/// The rule for texts a user is shown: each refused class, NFC, lengths.
@Suite("Display text")
struct DisplayTextTests {
    func reason(_ text: String, maxLength: Int = 70) -> String? {
        if case .failure(let violation) = DisplayText.normalized(text, field: "payee.name", maxLength: maxLength) {
            #expect(violation.field == "payee.name")
            #expect(violation.reason.hasPrefix("payee.name "), "the reason names the field")
            return violation.reason
        }
        return nil
    }

    @Test("plain names, accents, other scripts and a lone emoji pass unchanged")
    func accepted() throws {
        for text in ["ACME SAS", "Café de l'Église", "Zürich Versicherung", "Ελληνικά", "東京電力", "Ana's 📱", "❤️ Shop", "🇫🇷 Paris"] {
            #expect(try DisplayText.normalized(text, field: "payee.name", maxLength: 70).get() == text, "\(text)")
            #expect(DisplayText.isAcceptable(text, maxLength: 70), "\(text)")
        }
    }

    @Test("NFC: a decomposed accent becomes one precomposed character")
    func nfc() throws {
        let decomposed = "Cafe\u{301}"
        let normalized = try DisplayText.normalized(decomposed, field: "payee.name", maxLength: 70).get()
        #expect(normalized == "Café")
        #expect(normalized.unicodeScalars.map(\.value) == [0x43, 0x61, 0x66, 0xE9])
        #expect(try DisplayText.normalized("e\u{301}", field: "name", maxLength: 1).get().unicodeScalars.count == 1)
        // Swift's == compares canonically equivalent strings as equal, so tell the forms apart by scalars.
        #expect(!DisplayText.isAcceptable(decomposed, maxLength: 70), "accepted as it stands only in NFC")
        // Normalising twice changes nothing.
        #expect(try DisplayText.normalized(normalized, field: "x", maxLength: 70).get().unicodeScalars.elementsEqual(normalized.unicodeScalars))
    }

    @Test(
        "bidirectional embeddings, overrides, isolates and marks are refused",
        arguments: [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C] as [UInt32])
    func bidi(_ value: UInt32) throws {
        let scalar = try #require(Unicode.Scalar(value))
        let text = "\(Character(scalar))SAS EMCA"
        let refused = try #require(reason(text))
        #expect(refused.contains("U+" + String(value, radix: 16, uppercase: true).leftPadded(to: 4)), "\(refused)")
        #expect(reason("ACME\(Character(scalar)) SAS") != nil)
    }

    @Test("other format characters: zero-width space and joiners, soft hyphen, byte-order mark, tags")
    func format() {
        for text in ["AC\u{200B}ME", "AC\u{200C}ME", "AC\u{200D}ME", "AC\u{00AD}ME", "\u{FEFF}ACME", "ACME\u{E0041}", "👩\u{200D}💻 Dev"] {
            #expect(reason(text)?.contains("format character") == true, "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test("control characters, tabs and line breaks")
    func control() {
        for text in ["AC\nME", "AC\rME", "AC\tME", "ACME\u{0007}", "AC\u{0000}ME", "AC\u{007F}ME", "AC\u{0085}ME", "AC\u{001B}[31mME"] {
            #expect(reason(text)?.contains("control character") == true, "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test("line and paragraph separators, and every space but U+0020")
    func separators() {
        #expect(reason("ACME\u{2028}SAS")?.contains("separator") == true)
        #expect(reason("ACME\u{2029}SAS")?.contains("separator") == true)
        for space in ["\u{00A0}", "\u{2000}", "\u{2009}", "\u{200A}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{1680}"] {
            #expect(reason("ACME\(space)SAS")?.contains("space other than U+0020") == true, "\(space.unicodeScalars.map(\.value))")
        }
        #expect(reason(" ACME") == "payee.name must not start or end with a space")
        #expect(reason("ACME ") == "payee.name must not start or end with a space")
        #expect(reason("ACME SAS") == nil)
    }

    @Test("private-use, unassigned, noncharacters and invisible letters")
    func invisible() throws {
        #expect(reason("ACME\u{E000}")?.contains("private-use") == true)
        #expect(reason("ACME\u{F8FF}")?.contains("private-use") == true)
        // Noncharacters cannot be written as literals: built from their values.
        for value: UInt32 in [0xFFFF, 0xFDD0] {
            let scalar = try #require(Unicode.Scalar(value))
            #expect(reason("ACME\(Character(scalar))")?.contains("unassigned") == true, "\(value)")
        }
        #expect(reason("ACME\u{0378}")?.contains("unassigned") == true)
        for filler in ["\u{3164}", "\u{115F}", "\u{1160}", "\u{FFA0}", "\u{034F}"] {
            #expect(reason("AC\(filler)ME")?.contains("invisible") == true, "\(filler.unicodeScalars.map(\.value))")
        }
    }

    @Test("a leading combining mark and stacked marks")
    func marks() {
        #expect(reason("\u{301}ACME") == "payee.name must not start with a combining mark")
        let stacked = "A" + String(repeating: "\u{301}\u{300}\u{302}", count: 3)
        #expect(reason(stacked) == "payee.name must not have a character of more than 8 code points")
        #expect(reason("A\u{301}\u{302}") == nil)
    }

    @Test("lengths count what the user sees, after NFC")
    func lengths() {
        #expect(reason("") == "payee.name must be 1 to 70 characters")
        #expect(reason(String(repeating: "x", count: 70)) == nil)
        #expect(reason(String(repeating: "x", count: 71)) == "payee.name must be 1 to 70 characters")
        // 70 accented letters typed decomposed are 140 code points but 70 characters.
        #expect(reason(String(repeating: "e\u{301}", count: 70)) == nil)
        #expect(reason(String(repeating: "🇫🇷", count: 70)) == nil)
        #expect(reason(String(repeating: "é", count: 5), maxLength: 4) == "payee.name must be 1 to 4 characters")
    }

    @Test("escaping for display writes refused code points out and keeps the rest")
    func escaped() {
        #expect(DisplayText.escaped("\u{202E}SAS EMCA") == "<U+202E>SAS EMCA")
        #expect(DisplayText.escaped("a\nb\u{200B}c\u{00A0}d") == "a<U+000A>b<U+200B>c<U+00A0>d")
        #expect(DisplayText.escaped("Café ❤️ 東京") == "Café ❤️ 東京")
    }

    @Test("the transaction rules apply it to payee and reference and keep the NFC form")
    func transactions() throws {
        let spoofed = Transaction(amount: "1.00", currency: "EUR", payee: .init(name: "\u{202E}SAS EMCA"))
        guard case .failure(let violation) = TransactionRules.normalized(spoofed) else {
            Issue.record("a payee with U+202E was accepted")
            return
        }
        #expect(violation.reason.hasPrefix("payee.name must not contain U+202E"))
        let decomposed = Transaction(amount: "1.00", currency: "EUR", payee: .init(name: "Cafe\u{301}"), reference: "Fe\u{301}vrier")
        let normalized = try TransactionRules.normalized(decomposed).get()
        #expect(normalized.payee.name.unicodeScalars.count == 4)
        #expect(normalized.reference?.unicodeScalars.count == 7)
        // The digest is over the NFC form: both spellings give one digest once normalised,
        // and the raw decomposed form would have given another.
        let precomposed = try TransactionRules.normalized(
            Transaction(amount: "1.00", currency: "EUR", payee: .init(name: "Café"), reference: "Février")).get()
        #expect(normalized.digest == precomposed.digest)
        #expect(decomposed.digest != precomposed.digest)
        var bidiReference = decomposed
        bidiReference.reference = "INV\u{2066}1"
        guard case .failure(let referenceViolation) = TransactionRules.normalized(bidiReference) else {
            Issue.record("a reference with U+2066 was accepted")
            return
        }
        #expect(referenceViolation.reason.hasPrefix("reference must not contain U+2066"))
    }

    @Test("e-mail addresses refuse what would reorder or hide text")
    func email() {
        #expect(InputRules.emailProblem("ana@example.com") == nil)
        #expect(InputRules.emailProblem("ana\u{202E}@example.com") != nil)
        #expect(InputRules.emailProblem("a\u{200B}na@example.com") != nil)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
