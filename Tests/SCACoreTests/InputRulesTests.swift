import Testing

@testable import SCACore

/// The id and digit checks read bytes, not characters: they must still refuse every character
/// outside ASCII, however it looks.
struct InputRulesTests {
    @Test(arguments: ["ch_abc", "ch_A-b_9", "ch_-", "dev_x", "ch_" + String(repeating: "a", count: InputRules.maxIDLength - 3)])
    func wellFormedIDsPass(id: String) {
        let prefix = String(id.prefix { $0 != "_" })
        #expect(InputRules.isWellFormedID(id, prefix: prefix))
    }

    @Test(arguments: [
        "ch_", "ch", "", "chx_abc", "dev_abc", "ch-abc", "CH_abc", "ch_ab c", "ch_ab.c", "ch_ab/c", "ch_ab+c", "ch_ab=c",
        "ch_é", "ch_e\u{301}", "ch_\u{FF11}", "ch_\u{0661}", "ch_a\u{200B}", "ch_a\u{202E}", "ch_a\n", "ch_a\r\n", "ch_\0",
        "ch_a😀", "ch_" + String(repeating: "a", count: InputRules.maxIDLength - 2),
    ])
    func malformedIDsFail(id: String) {
        #expect(!InputRules.isWellFormedID(id, prefix: "ch"))
    }

    @Test func digits() {
        #expect(InputRules.isDigits("012345", count: 6))
        #expect(!InputRules.isDigits("01234", count: 6))
        #expect(!InputRules.isDigits("0123456", count: 6))
        #expect(!InputRules.isDigits("01234a", count: 6))
        #expect(!InputRules.isDigits("01234\u{FF15}", count: 6))
        #expect(!InputRules.isDigits("01234\u{0665}", count: 6))
        #expect(!InputRules.isDigits("0123 5", count: 6))
        #expect(InputRules.isDigits("", count: 0))
    }
}
