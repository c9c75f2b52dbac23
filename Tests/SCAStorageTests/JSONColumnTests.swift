import Foundation
import SCACore
import SCAStorage
import Testing

/// Lists of raw values (a challenge's methods, an admin key's scopes) are written directly
/// instead of through `JSONEncoder`; the stored text must stay what the encoder wrote, so that
/// rows written before and after read and compare alike in both backends.
@Suite("JSON columns: lists of raw values")
struct JSONColumnTests {
    /// Raw values that are not identifiers, which take the encoder's path.
    enum Odd: String, CaseIterable {
        case quote = "a\"b", backslash = "a\\b", slash = "a/b", space = "a b", accent = "é", emoji = "😀", control = "\u{1}", empty = ""
    }

    @Test("every subset of the methods, in order, is written as the encoder writes it")
    func methodsMatchTheEncoder() throws {
        let all = AuthenticationMethod.allCases
        for mask in 0..<(1 << all.count) {
            let subset = all.enumerated().filter { mask & (1 << $0.offset) != 0 }.map(\.element)
            #expect(try JSONColumn.text(rawValues: subset) == JSONColumn.text(subset.map(\.rawValue)))
            #expect(try JSONColumn.text(rawValues: Array(subset.reversed())) == JSONColumn.text(subset.reversed().map(\.rawValue)))
        }
    }

    @Test("raw values that are not identifiers are escaped by the encoder, alone or among identifiers")
    func oddValuesMatchTheEncoder() throws {
        for odd in Odd.allCases {
            #expect(try JSONColumn.text(rawValues: [odd]) == JSONColumn.text([odd.rawValue]))
            let mixed: [String] = ["device_key", odd.rawValue, "totp"]
            #expect(try JSONColumn.text(rawValues: mixed.map { Raw(rawValue: $0) }) == JSONColumn.text(mixed))
        }
        #expect(try JSONColumn.text(rawValues: [AuthenticationMethod]()) == "[]")
    }

    @Test("lists written are read back as the decoder reads them; any other text is left to the decoder")
    func identifiersReadAsTheDecoderReads() throws {
        let all = AuthenticationMethod.allCases.map(\.rawValue)
        for count in 0...all.count {
            let list = Array(all.prefix(count))
            let text = try JSONColumn.text(rawValues: list.map { Raw(rawValue: $0) })
            #expect(JSONColumn.identifiers(in: text) == list)
            #expect(try JSONDecoder().decode([String].self, from: Data(text.utf8)) == list)
        }
        // Spaces, escapes, non-identifiers, empty strings, broken lists: not this reader's.
        for text in [#"[ "a"]"#, #"["a" ]"#, #"["a\u0062"]"#, #"["a b"]"#, #"[""]"#, #"["a",]"#, #"[,"a"]"#, #"["a""b"]"#,
            #"["a"#, "", "[", "null", #"{"a":1}"#, #"["é"]"#, #"["a","b"x]"#]
        {
            #expect(JSONColumn.identifiers(in: text) == nil, "\(text)")
        }
        for odd in Odd.allCases {
            #expect(JSONColumn.identifiers(in: try JSONColumn.text([odd.rawValue])) == nil)
        }
    }

    @Test("a string map is written as JSON that decodes to the same map, whatever its strings hold")
    func stringMapsDecodeToTheSameMap() throws {
        var maps: [[String: String]] = [[:], ["requiredCategories": "2"], ["b": "1", "a": "2", "é": "3", "😀": "4", "Z": "5"]]
        for odd in Odd.allCases { maps.append([odd.rawValue: odd.rawValue, "plain": odd.rawValue + "x"]) }
        maps.append(["tab\t": "line\nbreak", "nul": "\u{0}", "del": "\u{7F}", "bidi": "\u{202E}", "quote": "\"\\/"])
        for map in maps {
            let text = JSONColumn.text(strings: map)
            #expect(try JSONDecoder().decode([String: String].self, from: Data(text.utf8)) == map, "\(text)")
        }
        #expect(JSONColumn.text(strings: ["b": "1", "a": "2"]) == #"{"a":"2","b":"1"}"#)
    }

    struct Raw: RawRepresentable {
        var rawValue: String
    }

    @Test("an empty profile is stored as the text the user reader recognises without decoding")
    func emptyProfileText() throws {
        #expect(try JSONColumn.text(UserProfile()) == UserRecord.emptyProfileText)
        #expect(try JSONColumn.text(UserProfile(name: "A")) != UserRecord.emptyProfileText)
    }
}
