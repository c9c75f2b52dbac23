import Testing

@testable import SCAWebAuthn

/// The examples of RFC 8949 Appendix A that fall in the subset WebAuthn uses, and the ones
/// outside it, which must be refused rather than misread.
@Suite struct CBORDecoderTests {
    static let accepted: [(String, CBORValue)] = [
        ("00", .unsigned(0)),
        ("01", .unsigned(1)),
        ("0a", .unsigned(10)),
        ("17", .unsigned(23)),
        ("1818", .unsigned(24)),
        ("1819", .unsigned(25)),
        ("1864", .unsigned(100)),
        ("1903e8", .unsigned(1000)),
        ("1a000f4240", .unsigned(1_000_000)),
        ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)),
        ("1bffffffffffffffff", .unsigned(18_446_744_073_709_551_615)),
        ("3bffffffffffffffff", .negative(18_446_744_073_709_551_615)),
        ("20", .negative(0)),
        ("29", .negative(9)),
        ("3863", .negative(99)),
        ("3903e7", .negative(999)),
        ("f4", .bool(false)),
        ("f5", .bool(true)),
        ("f6", .null),
        ("f7", .undefined),
        ("40", .bytes([])),
        ("4401020304", .bytes([1, 2, 3, 4])),
        ("60", .text("")),
        ("6161", .text("a")),
        ("6449455446", .text("IETF")),
        ("62225c", .text("\"\\")),
        ("62c3bc", .text("\u{00fc}")),
        ("63e6b0b4", .text("\u{6c34}")),
        ("64f0908591", .text("\u{10151}")),
        ("80", .array([])),
        ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        ("8301820203820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
        ("a0", .map([])),
        ("a201020304", .map([.init(key: .unsigned(1), value: .unsigned(2)), .init(key: .unsigned(3), value: .unsigned(4))])),
        (
            "a26161016162820203",
            .map([
                .init(key: .text("a"), value: .unsigned(1)),
                .init(key: .text("b"), value: .array([.unsigned(2), .unsigned(3)])),
            ])
        ),
    ]

    @Test(arguments: accepted.indices)
    func decodesTheRFCExample(index: Int) throws {
        let (hex, expected) = Self.accepted[index]
        #expect(try CBORDecoder().decode([UInt8](hex: hex)) == expected, "\(hex)")
    }

    /// Floats, tags, indefinite lengths and unassigned simple values of Appendix A.
    @Test(arguments: [
        "f90000", "f93c00", "fa47c35000", "fb3ff199999999999a",  // floats
        "c074323031332d30332d32315432303a30343a30305a", "c11a514b67b0", "d82076687474703a2f2f7777772e6578616d706c652e636f6d",  // tags
        "5f42010243030405ff", "7f657374726561646d696e67ff", "9fff", "bf61610161629f0203ffff",  // indefinite
        "f0", "f818", "f8ff",  // simple values
    ])
    func refusesWhatWebAuthnDoesNotUse(hex: String) {
        #expect(throws: CBORError.unsupported) { try CBORDecoder().decode([UInt8](hex: hex)) }
    }

    @Test func integerAccessorCoversTheSignedRange() {
        #expect(CBORValue.negative(0).integer == -1)
        #expect(CBORValue.negative(UInt64(Int64.max)).integer == Int64.min)
        #expect(CBORValue.negative(UInt64(Int64.max) + 1).integer == nil)
        #expect(CBORValue.unsigned(UInt64(Int64.max) + 1).integer == nil)
        #expect(CBORValue.unsigned(7).integer == 7)
    }

    @Test func refusesTrailingBytes() {
        #expect(throws: CBORError.trailingBytes) { try CBORDecoder().decode([0x01, 0x02]) }
    }

    @Test func prefixDecodingReportsWhereTheItemEnds() throws {
        let (value, end) = try CBORDecoder().decodePrefix([0xff, 0x82, 0x01, 0x02, 0x99], from: 1)
        #expect(value == .array([.unsigned(1), .unsigned(2)]))
        #expect(end == 4)
    }

    @Test func refusesDuplicateMapKeys() {
        #expect(throws: CBORError.duplicateKey) { try CBORDecoder().decode([UInt8](hex: "a201020103")) }
    }

    @Test func refusesTextThatIsNotUTF8() {
        #expect(throws: CBORError.invalidText) { try CBORDecoder().decode([0x62, 0xc3, 0x28]) }
    }
}
