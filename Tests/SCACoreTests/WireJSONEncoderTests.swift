import Foundation
import SCACore
import Testing

/// ``WireJSONEncoder`` must write exactly the bytes of `WireJSON.sharedEncoder`, whose output
/// clients (and the hashes and signatures some of them compute) already depend on.
@Suite("WireJSONEncoder")
struct WireJSONEncoderTests {
    /// Both encoders' bytes for `value`, or the fact that both threw.
    static func expectSameBytes<T: Encodable>(
        _ value: T, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let foundation = try? [UInt8](WireJSON.sharedEncoder.encode(value))
        let ours = try? WireJSON.encode(value)
        #expect(
            ours.map { String(decoding: $0, as: UTF8.self) } == foundation.map { String(decoding: $0, as: UTF8.self) },
            comment, sourceLocation: sourceLocation)
        #expect(ours == foundation, comment, sourceLocation: sourceLocation)
    }

    @Test("every ASCII character, DEL, slash and non-ASCII text are escaped or kept as Foundation does")
    func strings() throws {
        let ascii = String(String.UnicodeScalarView((0...0x7F).map { Unicode.Scalar(UInt8($0)) }))
        Self.expectSameBytes([ascii])
        Self.expectSameBytes(["\"quoted\" and \\back\\slashed\\", "a/b//c", "\u{7F}"])
        // Emoji (outside the BMP), combining marks, bidi marks, line and paragraph separators, BOM.
        Self.expectSameBytes(["😀👩🏽‍💻", "e\u{301}", "Å", "\u{200F}abc\u{200E}\u{202E}", "\u{2028}\u{2029}", "\u{FEFF}", "𝄞", ""])
        // The spellings asserted, not only compared, so that a change in Foundation is noticed too.
        #expect(try WireJSON.encode(["\u{0}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}/\u{7F}"]) == Array(#"["\u0000\b\t\n\u000b\f\r\u001f/"#.utf8) + [0x7F] + Array(#""]"#.utf8))
    }

    private struct NamedKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// An object with members written under the given names, in that order, valued by position.
    private struct Members: Encodable {
        var names: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: NamedKey.self)
            for (position, name) in names.enumerated() { try container.encode(position, forKey: NamedKey(stringValue: name)) }
        }
    }

    @Test("keys are sorted by code point: case, digits, underscore, non-ASCII, outside the BMP; a key twice keeps the last value")
    func keyOrder() throws {
        let names = ["b", "B", "a", "A", "_", "10", "9", "", "aa", "a\u{0}", "ä", "é", "e\u{301}x", "f", "ﬁ", "～", "😀", "\u{212B}", "a", "B"]
        Self.expectSameBytes(Members(names: names))
        #expect(try WireJSON.encode(Members(names: ["b", "B", "a", "_", "a"])) == Array(#"{"B":1,"_":3,"a":4,"b":0}"#.utf8))
        // UTF-16 order would put the emoji (D83D) before U+FF5E; code point order puts it last.
        #expect(try WireJSON.encode(Members(names: ["😀", "～"])) == Array(#"{"～":1,"😀":0}"#.utf8))
        Self.expectSameBytes(["z": 1, "Z": 2, "é": 3, "e": 4])
    }

    @Test("integers at their limits, booleans, empty containers, nil in arrays and nested optionals")
    func scalarsAndContainers() {
        Self.expectSameBytes([Int.min, Int.max, 0, -1])
        Self.expectSameBytes([Int8.min, Int8.max])
        Self.expectSameBytes([Int64.min])
        Self.expectSameBytes([UInt64.max, 0])
        Self.expectSameBytes([UInt8.max])
        Self.expectSameBytes([true, false])
        Self.expectSameBytes([Int]())
        Self.expectSameBytes([String: Int]())
        Self.expectSameBytes([[String: [Int]]()])
        Self.expectSameBytes([Int?.none, 1, nil])
        Self.expectSameBytes([[Int?.none]])
        Self.expectSameBytes([Int??.none, .some(.none), .some(.some(3))])
        Self.expectSameBytes(["outer": ["inner": [String?.none, "x"]]])
        Self.expectSameBytes([3: "x", 1: "y"])
        Self.expectSameBytes("top-level string")
        Self.expectSameBytes(42)
        Self.expectSameBytes(Int?.none)
    }

    private struct Optionals: Codable {
        var text: String?
        var number: Int?
        var date: Date?
        var list: [Date?]?
        var nested: [Optionals]?
        var data: Data?
        var flags: [String: Bool]?
    }

    @Test("nil optionals are left out, set ones written, at every depth")
    func optionals() {
        Self.expectSameBytes(Optionals())
        let inner = Optionals(text: "in", number: -3, date: Date(timeIntervalSince1970: 5), list: [nil], data: Data())
        Self.expectSameBytes(
            Optionals(
                text: "out", number: 1, date: Date(timeIntervalSince1970: 1.5), list: [nil, Date(timeIntervalSince1970: 0)],
                nested: [inner, Optionals()], data: Data([0, 0xFF, 0x10]), flags: ["b": true, "a": false]))
    }

    @Test("dates: whole seconds rounded down, before 1970, before 1583 and after 9999 (Foundation's own text)")
    func dates() throws {
        var dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.5), Date(timeIntervalSince1970: 1.999),
            Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: -3_164_112_000.7), Date(timeIntervalSinceReferenceDate: -0.000_000_1),
            Date(timeIntervalSince1970: 951_782_400), Date(timeIntervalSince1970: 253_402_300_799.9),
            Date(timeIntervalSince1970: 253_402_300_800), Date(timeIntervalSince1970: -12_212_553_600),
            Date(timeIntervalSince1970: -12_212_553_600.5), Date(timeIntervalSince1970: -12_219_292_801),
            Date.distantPast, Date.distantFuture,
        ]
        // Random instants over the whole fast range and around 1970, with fractions.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: -12_300_000_000...253_500_000_000, using: &generator)))
            dates.append(Date(timeIntervalSince1970: Double(Int.random(in: -200_000...200_000, using: &generator)) + Double.random(in: -0.001...0.001, using: &generator)))
        }
        for date in dates { Self.expectSameBytes([date], "\(date.timeIntervalSinceReferenceDate)") }
        #expect(try WireJSON.encode([Date(timeIntervalSince1970: -0.25)]) == Array(#"["1969-12-31T23:59:59Z"]"#.utf8))
    }

    @Test("data as base64, and the numbers Foundation formats itself")
    func dataAndNumbers() throws {
        Self.expectSameBytes([Data(), Data([0xFF, 0xFE, 0x01]), Data("hello".utf8)])
        Self.expectSameBytes([1.0, 0.1, 1e20, 1e-7, -0.0, 1.5e15, Double.greatestFiniteMagnitude])
        Self.expectSameBytes([Float(0.1), 3])
        Self.expectSameBytes([Decimal(string: "1.10")!])
        Self.expectSameBytes([URL(string: "https://example.com/a?b=c")!])
        #expect(throws: EncodingError.self) { try WireJSON.encode(["a": [Double.nan]]) }
    }

    /// A hand-written `encode(to:)` using every container operation.
    private struct Handwritten: Encodable {
        enum Key: String, CodingKey { case x, y, z, w, list }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .x)
            try container.encode(2, forKey: .x)
            try container.encodeNil(forKey: .y)
            var first = container.nestedContainer(keyedBy: Key.self, forKey: .z)
            try first.encode("a", forKey: .x)
            var again = container.nestedContainer(keyedBy: Key.self, forKey: .z)
            try again.encode("b", forKey: .y)
            var super1 = container.superEncoder().singleValueContainer()
            try super1.encode(5)
            _ = container.superEncoder(forKey: .w)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            try list.encodeNil()
            var object = list.nestedContainer(keyedBy: Key.self)
            try object.encode(true, forKey: .x)
            var inner = list.nestedUnkeyedContainer()
            try inner.encode("i")
            var superElement = list.superEncoder().singleValueContainer()
            try superElement.encode("s")
            _ = list.superEncoder()
            var more = container.nestedUnkeyedContainer(forKey: .list)
            try more.encode(2)
        }
    }

    /// The pattern of the server's introspection body: a message encodes itself, then more
    /// members join the same object, one of them under a name the message already wrote.
    private struct Extended: Encodable {
        var message: Problem
        var extra: [String: String]
        func encode(to encoder: any Encoder) throws {
            try message.encode(to: encoder)
            var container = encoder.container(keyedBy: NamedKey.self)
            for (name, value) in extra.sorted(by: { $0.key < $1.key }) { try container.encode(value, forKey: NamedKey(stringValue: name)) }
        }
    }

    private struct Empty: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    @Test("nested keyed and unkeyed containers, asked twice for one key, and super encoders")
    func handwritten() throws {
        Self.expectSameBytes(Handwritten())
        #expect(
            try WireJSON.encode(Handwritten())
                == Array(#"{"list":[1,null,{"x":true},["i"],"s",{},2],"super":5,"w":{},"x":2,"y":null,"z":{"x":"a","y":"b"}}"#.utf8))
        let extended = Extended(
            message: Problem(status: 400, code: .requestInvalid, title: "T", detail: "D"), extra: ["zz": "1", "title": "again", "A": "2"])
        Self.expectSameBytes(extended)
        #expect(try WireJSON.encode(extended).count == (try WireJSON.sharedEncoder.encode(extended)).count)
        // A value that encodes nothing: `{}` inside a container, an error at the top.
        Self.expectSameBytes([Empty()])
        #expect(throws: EncodingError.self) { try WireJSON.encode(Empty()) }
    }
}
