extension QRCode {
    /// Renders the symbol as a small standalone SVG document.
    ///
    /// Coordinates are in modules (the `viewBox` includes the quiet zone) and
    /// `width`/`height` scale it to `moduleSize` pixels per module. The dark
    /// modules are one `<path>` of horizontal runs, which keeps the markup
    /// compact and avoids hairline seams between neighbouring squares.
    ///
    /// The output has no scripts, no external references and no `style`
    /// attributes (only presentation attributes), so it can be inlined in a
    /// page served with a strict Content-Security-Policy.
    ///
    /// - Parameters:
    ///   - moduleSize: Pixels per module in the default rendering size.
    ///   - quietZone: Light border in modules; the standard asks for 4.
    ///   - title: Accessible name, e.g. "QR code for your authenticator app".
    package func svg(moduleSize: Int = 4, quietZone: Int = 4, title: String) -> String {
        precondition(moduleSize > 0, "moduleSize must be positive")
        precondition(quietZone >= 0, "quietZone must not be negative")

        let extent = size + 2 * quietZone
        let pixels = extent * moduleSize

        // One closed rectangle per horizontal run of dark modules:
        // move to its top-left corner, right by the run, down 1, back, close.
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x, y] else {
                    x += 1
                    continue
                }
                let start = x
                while x < size && self[x, y] { x += 1 }
                let width = x - start
                path += "M\(start + quietZone) \(y + quietZone)h\(width)v1h-\(width)z"
            }
        }

        return "<svg xmlns=\"http://www.w3.org/2000/svg\""
            + " viewBox=\"0 0 \(extent) \(extent)\" width=\"\(pixels)\" height=\"\(pixels)\""
            + " role=\"img\" aria-labelledby=\"qrcode-title\" shape-rendering=\"crispEdges\">"
            + "<title id=\"qrcode-title\">\(Self.xmlEscaped(title))</title>"
            + "<rect width=\"\(extent)\" height=\"\(extent)\" fill=\"#fff\"/>"
            + "<path fill=\"#000\" d=\"\(path)\"/>"
            + "</svg>"
    }

    /// Escapes text for element content or attribute values and drops the
    /// characters XML 1.0 cannot represent at all (most C0 controls,
    /// U+FFFE, U+FFFF), so any title yields a well-formed document.
    private static func xmlEscaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
