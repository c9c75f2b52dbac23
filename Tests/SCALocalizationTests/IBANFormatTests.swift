import Testing

@testable import SCALocalization

@Suite struct IBANFormatTests {
    @Test func groupsOfFour() {
        #expect(IBANFormat.grouped("FR7630006000011234567890189") == "FR76 3000 6000 0112 3456 7890 189")
        #expect(IBANFormat.grouped("DE89370400440532013000") == "DE89 3704 0044 0532 0130 00")
        #expect(IBANFormat.grouped("NL91ABNA0417164300") == "NL91 ABNA 0417 1643 00")
    }

    @Test func spacingAndCaseAsTypedAreEvenedOut() {
        #expect(IBANFormat.grouped("fr76 3000 6000 0112 3456 7890 189") == "FR76 3000 6000 0112 3456 7890 189")
        #expect(IBANFormat.grouped(" BE68 5390 0754 7034 ") == "BE68 5390 0754 7034")
    }

    @Test func shortOrEmpty() {
        #expect(IBANFormat.grouped("") == "")
        #expect(IBANFormat.grouped("FR76") == "FR76")
        #expect(IBANFormat.grouped("FR763") == "FR76 3")
    }
}
