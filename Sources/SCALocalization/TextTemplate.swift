/// A catalogue string with named placeholders: `"Pay {amount} to {payee}"`.
///
/// Names, never positions, so a translator may put the payee before the amount and still
/// cannot swap them. Braces are reserved for placeholders: a name is a letter followed by
/// letters or digits, and a brace that does not open or close one is a mistake the catalogue
/// test reports (``CatalogueProblem``), not text.
package enum TextTemplate {
    /// A piece of a parsed string.
    package enum Piece: Equatable, Sendable {
        case literal(String)
        case placeholder(String)
    }

    /// What is wrong with a string's braces, in words a translator can act on.
    package struct Fault: Error, Equatable, Sendable {
        package let reason: String
    }

    /// The string cut into literal text and placeholders.
    /// - Throws: ``Fault`` for a `{` without its `}`, a stray `}`, or a name that is empty or
    ///   not a letter followed by letters and digits.
    package static func parse(_ text: String) throws(Fault) -> [Piece] {
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(text)
        while let character = rest.first {
            rest = rest.dropFirst()
            switch character {
            case "{":
                guard let close = rest.firstIndex(of: "}") else {
                    throw Fault(reason: "a \"{\" is not closed by \"}\"")
                }
                let name = String(rest[..<close])
                guard isName(name) else {
                    throw Fault(reason: "\"{\(name)}\" is not a placeholder name (a letter, then letters or digits)")
                }
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = ""
                pieces.append(.placeholder(name))
                rest = rest[rest.index(after: close)...]
            case "}":
                throw Fault(reason: "a \"}\" closes no placeholder")
            default:
                literal.append(character)
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return pieces
    }

    /// The placeholder names the string uses.
    /// - Throws: ``Fault`` as ``parse(_:)``.
    package static func placeholders(in text: String) throws(Fault) -> Set<String> {
        Set(try parse(text).compactMap { if case .placeholder(let name) = $0 { name } else { nil } })
    }

    /// The string with each placeholder replaced by its value. A placeholder without a value
    /// stays as `{name}`, and a string whose braces do not parse is returned as it is: a
    /// page shows a visible slip rather than failing, and the catalogue test keeps both from
    /// shipping.
    package static func fill(_ text: String, with values: [String: String]) -> String {
        guard let pieces = try? parse(text) else { return text }
        var result = ""
        for piece in pieces {
            switch piece {
            case .literal(let literal): result += literal
            case .placeholder(let name): result += values[name] ?? "{\(name)}"
            }
        }
        return result
    }

    private static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
