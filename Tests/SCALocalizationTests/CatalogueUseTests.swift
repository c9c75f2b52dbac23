import Foundation
import Testing

@testable import SCALocalization

/// The catalogue against the code that reads it: every key the code names exists, and every
/// key the catalogue holds is named somewhere, so no translator spends time on words no one
/// will ever read, and no page shows a raw key.
///
/// The code is read as text, from `Sources/`. A key is named when it appears whole (as a
/// string literal, or as `{{t.key}}` in a template), or when the code builds it from literal
/// parts around one interpolation, `"consent.finished.\(outcome).heading"`: then every key
/// with that start and end counts as named. Keys are never built any other way, so nothing
/// named escapes this reading.
@Suite struct CatalogueUseTests {
    let english: Set<String>
    let sources: [(path: String, text: String)]

    init() throws {
        english = Set(try Catalogue.bundled().entries[.english]?.keys ?? [:].keys)
        // Tests/SCALocalizationTests/<this file> → the package's root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources")
        var sources: [(String, String)] = []
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = walker?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            sources.append((String(file.path.dropFirst(folder.path.count + 1)), try String(contentsOf: file, encoding: .utf8)))
        }
        self.sources = sources
    }

    /// The first dotted part of every key: `signin`, `factor`, `terminal`, …
    private var families: Set<Substring> { Set(english.compactMap { $0.split(separator: ".").first }) }

    @Test func everyKeyIsUsed() throws {
        let whole = try Regex(#"(?:^|[^A-Za-z0-9_])([a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+)(?![A-Za-z0-9_(])"#)
        let built = try Regex(#""([a-z][A-Za-z0-9_.]*\.)\\\([^)]*\)([A-Za-z0-9_.]*)""#)
        let template = try Regex(#"\{\{t\.([A-Za-z0-9_.]+)\}\}"#)
        var named: Set<String> = []
        var patterns: [(start: String, end: String)] = []
        for (_, text) in sources {
            for match in text.matches(of: whole) {
                if let key = match.output[1].substring { named.insert(String(key)) }
            }
            for match in text.matches(of: template) {
                if let key = match.output[1].substring { named.insert(String(key)) }
            }
            for match in text.matches(of: built) {
                patterns.append((String(match.output[1].substring ?? ""), String(match.output[2].substring ?? "")))
            }
        }
        let unused = english.filter { key in
            !named.contains(key) && !patterns.contains(where: { key.hasPrefix($0.start) && key.hasSuffix($0.end) })
        }
        #expect(unused.isEmpty, "catalogue keys no code reads:\n\(unused.sorted().joined(separator: "\n"))")
    }

    /// Every key the code hands to the catalogue, and every `{{t.…}}` of a template, is an
    /// English key: a typo would show the key itself on a page. A literal is taken as a key
    /// on the lines that read the catalogue (`text(`, `PageText(`, `html(`, `heading:`), since
    /// audit events and problem codes elsewhere share the dotted shape.
    @Test func everyNamedKeyExists() throws {
        let literal = try Regex(#""([a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+)""#)
        let template = try Regex(#"\{\{t\.([A-Za-z0-9_.]+)\}\}"#)
        let families = families
        var missing: [String] = []
        for (path, text) in sources {
            for match in text.matches(of: template) {
                let key = String(match.output[1].substring ?? "")
                if !english.contains(key) { missing.append("\(path): {{t.\(key)}}") }
            }
            // The catalogue module's own examples in its comments are not keys.
            guard !path.hasPrefix("SCALocalization/") else { continue }
            for line in text.split(separator: "\n") where Self.readsCatalogue(line) {
                for match in line.matches(of: literal) {
                    let key = String(match.output[1].substring ?? "")
                    guard let family = key.split(separator: ".").first, families.contains(family) else { continue }
                    if !english.contains(key) { missing.append("\(path): \"\(key)\"") }
                }
            }
        }
        #expect(missing.isEmpty, "keys the code names that the catalogue lacks:\n\(missing.joined(separator: "\n"))")
    }

    private static func readsCatalogue(_ line: Substring) -> Bool {
        ["text(", "PageText(", "html(", "heading: \""].contains(where: line.contains)
    }
}
