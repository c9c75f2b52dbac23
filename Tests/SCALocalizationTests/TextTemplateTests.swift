import Testing

@testable import SCALocalization

@Suite struct TextTemplateTests {
    @Test func placeholdersAreNamedAndOrderFree() throws {
        #expect(try TextTemplate.placeholders(in: "{payee} reçoit {amount}") == ["payee", "amount"])
        #expect(TextTemplate.fill("{payee} reçoit {amount}", with: ["amount": "5 €", "payee": "Ana"]) == "Ana reçoit 5 €")
    }

    @Test func aValueIsInsertedAsItIsNeverReadAsATemplate() {
        #expect(TextTemplate.fill("Pay {payee}", with: ["payee": "{amount} Ltd"]) == "Pay {amount} Ltd")
    }

    @Test func malformedTextIsReturnedUnchanged() {
        #expect(TextTemplate.fill("Pay {amount", with: ["amount": "5"]) == "Pay {amount")
    }

    @Test func namesAreLettersThenLettersOrDigits() throws {
        #expect(throws: TextTemplate.Fault.self) { try TextTemplate.parse("{1st}") }
        #expect(throws: TextTemplate.Fault.self) { try TextTemplate.parse("{a-b}") }
        #expect(try TextTemplate.parse("{a1}") == [.placeholder("a1")])
    }
}
