import Testing
@testable import SCACore

import Foundation
#if canImport(FoundationXML)
import FoundationXML // XMLParser lives here on Linux
#endif

// MARK: - Whole symbols against reference matrices (see ReferenceVectors.swift)

@Suite("QR code symbols against an independent encoder") struct QRCodeSymbolTests {
    @Test(arguments: referenceVectors)
    func matchesReference(_ vector: ReferenceVector) throws {
        let code = try QRCode(
            bytes: Array(vector.text.utf8), correction: vector.correction,
            version: vector.forcedVersion, mask: vector.forcedMask
        )
        #expect(code.version == vector.version)
        #expect(code.mask == vector.mask)
        #expect(code.size == 17 + 4 * vector.version)
        try #require(vector.rows.count == code.size)

        var mismatches: [String] = []
        for (y, row) in vector.rows.enumerated() {
            for (x, expected) in row.enumerated() where code[x, y] != (expected == "#") {
                mismatches.append("(\(x),\(y))")
            }
        }
        let differing = mismatches.count
        #expect(differing == 0, "first differing modules: \(mismatches.prefix(10).joined(separator: " "))")
    }

    @Test func defaultInitChoosesSameAsUnforced() throws {
        let bytes = Array("otpauth://totp/x?secret=JBSWY3DPEHPK3PXP".utf8)
        let a = try QRCode(bytes: bytes)
        let b = try QRCode(bytes: bytes, correction: .medium, version: nil, mask: nil)
        #expect(a == b)
        #expect(a.correction == .medium)
    }
}

// MARK: - Building blocks

@Suite("QR code parts: Reed–Solomon, format and version bits, capacities") struct QRCodePartTests {
    /// The widely published "HELLO WORLD" 1-M example (thonky.com tutorial,
    /// also the worked example style of ISO/IEC 18004 Annex I).
    @Test func reedSolomonHelloWorld1M() {
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        #expect(QRCode.reedSolomon(data, ecCount: 10) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    @Test func galoisFieldMultiplication() {
        #expect(QRCode.gfMultiply(0x80, 0x02) == 0x1D) // x^8 reduces to 0x1D
        #expect(QRCode.gfMultiply(0x53, 0xCA) != 0)
        for a in 0...255 { #expect(QRCode.gfMultiply(UInt8(a), 1) == UInt8(a)) }
    }

    /// Published format information strings for level M, masks 0-7
    /// (ISO/IEC 18004 Annex C table; also thonky.com "Format Information").
    @Test func formatInformationLevelM() {
        let expected = [
            "101010000010010", "101000100100101", "101111001111100", "101101101001011",
            "100010111111001", "100000011001110", "100111110010111", "100101010100000",
        ]
        for mask in 0..<8 {
            #expect(bits(QRCode.formatBits(correction: .medium, mask: mask), width: 15) == expected[mask])
        }
        #expect(bits(QRCode.formatBits(correction: .low, mask: 4), width: 15) == "110011000101111")
        #expect(bits(QRCode.formatBits(correction: .quartile, mask: 0), width: 15) == "011010101011111")
        #expect(bits(QRCode.formatBits(correction: .high, mask: 7), width: 15) == "000100000111011")
    }

    @Test func versionInformation() {
        #expect(bits(QRCode.versionBits(version: 7), width: 18) == "000111110010010100")
        #expect(bits(QRCode.versionBits(version: 40), width: 18) == "101000110001101001")
    }

    /// The capacity formula must agree with the modules actually left free by
    /// the drawn function patterns, for every version.
    @Test func capacityFormulaMatchesGrid() {
        for version in 1...40 {
            var grid = QRCode.Grid(version: version)
            grid.drawFunctionPatterns()
            let free = grid.isFunction.filter { !$0 }.count
            #expect(free == QRCode.rawDataModules(version: version), "version \(version)")
        }
    }

    /// Data codeword counts from ISO/IEC 18004 Table 7.
    @Test func dataCapacities() {
        let samples: [(Int, QRCode.Correction, Int)] = [
            (1, .low, 19), (1, .medium, 16), (1, .quartile, 13), (1, .high, 9),
            (7, .medium, 124), (7, .quartile, 88), (10, .quartile, 154), (21, .high, 406),
            (40, .low, 2956), (40, .medium, 2334), (40, .quartile, 1666), (40, .high, 1276),
        ]
        for (version, level, count) in samples {
            #expect(QRCode.dataCodewordCount(version: version, correction: level) == count, "\(version)-\(level)")
        }
    }

    @Test func alignmentPositions() {
        #expect(QRCode.Grid.alignmentPositions(version: 1) == [])
        #expect(QRCode.Grid.alignmentPositions(version: 2) == [6, 18])
        #expect(QRCode.Grid.alignmentPositions(version: 7) == [6, 22, 38])
        #expect(QRCode.Grid.alignmentPositions(version: 32) == [6, 34, 60, 86, 112, 138])
        #expect(QRCode.Grid.alignmentPositions(version: 40) == [6, 30, 58, 86, 114, 142, 170])
    }

    @Test func tooLong() {
        #expect(throws: QRCode.Error.tooLong) {
            try QRCode(bytes: Array(repeating: 0x41, count: 3000), correction: .high)
        }
        // Exact byte-mode limits of version 40 (Table 7).
        #expect(throws: Never.self) { try QRCode(bytes: Array(repeating: 0, count: 2953), correction: .low) }
        #expect(throws: QRCode.Error.tooLong) { try QRCode(bytes: Array(repeating: 0, count: 2954), correction: .low) }
        #expect(throws: Never.self) { try QRCode(bytes: Array(repeating: 0, count: 1273), correction: .high) }
        #expect(throws: QRCode.Error.tooLong) { try QRCode(bytes: Array(repeating: 0, count: 1274), correction: .high) }
        // A forced version that is too small also reports tooLong.
        #expect(throws: QRCode.Error.tooLong) {
            try QRCode(bytes: Array(repeating: 0, count: 15), correction: .medium, version: 1, mask: nil)
        }
    }

    @Test func emptyPayloadEncodes() throws {
        let code = try QRCode(bytes: [])
        #expect(code.version == 1)
    }

    private func bits(_ value: Int, width: Int) -> String {
        String((0..<width).reversed().map { (value >> $0) & 1 == 1 ? "1" : "0" })
    }
}

// MARK: - SVG

@Suite("QR code as SVG") struct QRCodeSVGTests {
    let code: QRCode

    init() throws {
        let uri = "otpauth://totp/Example%20Bank:ana%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example%20Bank&algorithm=SHA1&digits=6&period=30"
        code = try QRCode(bytes: Array(uri.utf8))
    }

    @Test func isWellFormedAndMinimal() throws {
        let svg = code.svg(title: "Scan <me> & \"enrol\" 'now'\u{1}")
        let parsed = try #require(ParsedSVG(svg))
        #expect(parsed.elements == ["svg", "title", "rect", "path"])
        #expect(parsed.title == "Scan <me> & \"enrol\" 'now'")
        let root = parsed.attributes[0]
        #expect(root["xmlns"] == "http://www.w3.org/2000/svg")
        let extent = code.size + 8
        #expect(root["viewBox"] == "0 0 \(extent) \(extent)")
        #expect(root["width"] == "\(extent * 4)")
        #expect(root["height"] == "\(extent * 4)")
        #expect(root["role"] == "img")
        #expect(root["aria-labelledby"] == parsed.attributes[1]["id"])
        #expect(root["shape-rendering"] == "crispEdges")
        #expect(parsed.attributes[2]["fill"] == "#fff")
        #expect(parsed.attributes[3]["fill"] == "#000")
        #expect(!svg.contains("style"))
        #expect(!svg.lowercased().contains("<script"))
        #expect(!svg.contains("href"))
        #expect(svg.components(separatedBy: "<path").count == 2)
    }

    /// Re-rasterises the path data and compares it with the modules, so the
    /// run-length encoding and the quiet-zone offset are both checked.
    @Test(arguments: [(4, 4), (1, 0), (10, 2)])
    func pathDrawsExactlyTheDarkModules(moduleSize: Int, quietZone: Int) throws {
        let svg = code.svg(moduleSize: moduleSize, quietZone: quietZone, title: "t")
        let parsed = try #require(ParsedSVG(svg))
        let d = try #require(parsed.attributes[3]["d"])
        let extent = code.size + 2 * quietZone
        #expect(parsed.attributes[0]["width"] == "\(extent * moduleSize)")

        var drawn = Array(repeating: Array(repeating: false, count: extent), count: extent)
        // Each rectangle is "M<x> <y>h<w>v1h-<w>z".
        for rect in d.split(separator: "z") {
            let numbers = rect.split(whereSeparator: { "Mhv ".contains($0) }).compactMap { Int($0) }
            try #require(numbers.count == 5 && numbers[3] == 1 && numbers[4] == -numbers[2], "bad rect \(rect)")
            let (x, y, w) = (numbers[0], numbers[1], numbers[2])
            #expect(w > 0)
            for i in x..<x + w {
                #expect(!drawn[y][i], "overlap at \(i),\(y)")
                drawn[y][i] = true
            }
        }
        for y in 0..<extent {
            for x in 0..<extent {
                let inside = (quietZone..<quietZone + code.size).contains(x) && (quietZone..<quietZone + code.size).contains(y)
                let expected = inside && code[x - quietZone, y - quietZone]
                #expect(drawn[y][x] == expected, "module \(x),\(y)")
            }
        }
    }
}

/// Minimal XMLParser wrapper: element names in document order, their
/// attributes, and the title text. nil if the document is not well-formed.
final class ParsedSVG: NSObject, XMLParserDelegate {
    private(set) var elements: [String] = []
    private(set) var attributes: [[String: String]] = []
    private(set) var title = ""
    private var inTitle = false

    init?(_ text: String) {
        super.init()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = self
        guard parser.parse() else { return nil }
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        elements.append(elementName)
        attributes.append(attributeDict)
        inTitle = elementName == "title"
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        inTitle = false
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTitle { title += string }
    }
}
