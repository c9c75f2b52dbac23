import Foundation
import Testing
import SCACore

@Suite("JCS (RFC 8785)")
struct JCSTests {
    struct File: Decodable {
        let documents: [Document]
        let numbers: [Number]
        struct Document: Decodable {
            let name: String
            let input: String
            let canonical: String
        }
        struct Number: Decodable {
            let ieee754: String
            let canonical: String
        }
    }

    static func canonical(_ value: JSONValue) -> String {
        String(decoding: JCS.canonicalize(value), as: UTF8.self)
    }

    @Test("§3.2.2 sample and §3.2.3 sorting example: parsed, then canonicalized")
    func documents() throws {
        let file = try Vector.load(File.self, from: "rfc8785-jcs")
        #expect(file.documents.count == 2)
        for document in file.documents {
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(document.input.utf8))
            #expect(JCS.canonicalize(value) == Array(document.canonical.utf8), "\(document.name)")
        }
    }

    @Test("Appendix B: number serialization of every finite sample")
    func appendixB() throws {
        let file = try Vector.load(File.self, from: "rfc8785-jcs")
        #expect(file.numbers.count == 24)
        for number in file.numbers {
            let bits = try #require(UInt64(number.ieee754, radix: 16))
            #expect(Self.canonical(.number(Double(bitPattern: bits))) == number.canonical, "\(number.ieee754)")
        }
    }

    @Test(
        "numbers as ECMAScript writes them",
        arguments: [
            (0.0, "0"), (-0.0, "0"), (1, "1"), (-1, "-1"), (4.50, "4.5"), (100, "100"), (0.1, "0.1"),
            (2e-3, "0.002"), (1e-6, "0.000001"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"), (1e-27, "1e-27"),
            (123_456_789, "123456789"), (1e20, "100000000000000000000"), (1e21, "1e+21"), (-1e21, "-1e+21"),
            (1.5e21, "1.5e+21"), (1e30, "1e+30"), (333_333_333.33333329, "333333333.3333333"),
            (9_007_199_254_740_994, "9007199254740994"), (0.000001234, "0.000001234"), (125.0, "125"),
        ] as [(Double, String)])
    func numbers(value: Double, expected: String) {
        #expect(Self.canonical(.number(value)) == expected)
    }

    @Test("non-finite numbers, which JSON cannot carry, are written as null")
    func nonFinite() {
        #expect(Self.canonical(.number(.nan)) == "null")
        #expect(Self.canonical(.number(.infinity)) == "null")
        #expect(Self.canonical(.number(-.infinity)) == "null")
    }

    @Test("string escaping: only \" \\ and controls below U+0020; the rest is literal UTF-8")
    func strings() {
        let all = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        #expect(
            Self.canonical(.string(all))
                == #""\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
                + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f""#)
        #expect(Self.canonical(.string("a\"b\\c/d")) == #""a\"b\\c/d""#)
        #expect(Self.canonical(.string("\u{7F}\u{80}é€😀</script>")) == "\"\u{7F}\u{80}é€😀</script>\"")
        #expect(JCS.canonicalize(.string("€")) == [0x22, 0xE2, 0x82, 0xAC, 0x22])
    }

    @Test("nested objects and arrays: sorted at every level, no whitespace, array order kept")
    func nesting() {
        let value: JSONValue = [
            "b": [3, 1, ["z": nil, "a": [true, false]]],
            "a": ["y": "", "x": [:], "w": []],
            "": 0,
        ]
        #expect(Self.canonical(value) == #"{"":0,"a":{"w":[],"x":{},"y":""},"b":[3,1,{"a":[true,false],"z":null}]}"#)
    }

    @Test("keys sort by UTF-16 code units, not by Unicode scalars")
    func utf16Order() {
        // U+1F600 is D83D DE00 in UTF-16, so it sorts before U+FB33 although its scalar is larger.
        let value: JSONValue = ["\u{FB33}": 1, "\u{1F600}": 2]
        #expect(Self.canonical(value) == "{\"\u{1F600}\":2,\"\u{FB33}\":1}")
    }

    @Test("a transaction's digest is stable whatever order its JSON came in")
    func orderIndependence() throws {
        let first = try JSONDecoder().decode(
            JSONValue.self, from: Data(#"{"amount":"125.00","payee":{"name":"ACME","iban":"FR76"},"currency":"EUR"}"#.utf8))
        let second = try JSONDecoder().decode(
            JSONValue.self,
            from: Data(#"{ "currency" : "EUR", "payee" : { "iban" : "FR76", "name" : "ACME" }, "amount" : "125.00" }"#.utf8))
        #expect(JCS.canonicalize(first) == JCS.canonicalize(second))
        let transaction = Transaction(amount: "125.00", currency: "EUR", payee: .init(name: "ACME", iban: "FR76"))
        #expect(transaction.canonicalBytes == JCS.canonicalize(first))
    }
}

@Suite("JSONValue")
struct JSONValueTests {
    @Test("decodes any JSON and encodes it back")
    func codable() throws {
        let text = #"{"a":[1,2.5,"x",true,false,null,{"b":{}}],"c":-0.001}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(
            value == [
                "a": [1, 2.5, "x", true, false, nil, ["b": [:]]],
                "c": -0.001,
            ])
        let again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        #expect(again == value)
    }

    @Test("booleans stay booleans, numbers stay numbers")
    func kinds() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data("[true,1,0,false]".utf8))
        #expect(value == .array([.bool(true), .number(1), .number(0), .bool(false)]))
    }
}
