/// The JSON Canonicalization Scheme (RFC 8785): one byte string for each JSON value, so that
/// hashes and signatures over JSON do not depend on who serialized it.
package enum JCS {
    /// The canonical UTF-8 bytes of `value`.
    ///
    /// - Object members are sorted by their names' UTF-16 code units (§3.2.3).
    /// - No whitespace anywhere.
    /// - Strings escape only `"`, `\`, and the controls below U+0020 (as `\b \f \n \r \t`, the
    ///   rest as `\u00xx` in lower-case hex); everything else is literal UTF-8 (§3.2.2.2).
    /// - Numbers are written as ECMAScript's `Number.prototype.toString` writes them (§3.2.2.3):
    ///   `4.5`, `100`, `1e+21`, `1e-7`, and `-0` as `0`.
    ///
    /// RFC 8785 has no form for NaN or the infinities, and this function does not fail: it
    /// writes them as `null`, as `JSON.stringify` does. Callers that hash untrusted numbers
    /// should refuse non-finite ones before they get here (`JSONDecoder` never produces them).
    package static func canonicalize(_ value: JSONValue) -> [UInt8] {
        var output: [UInt8] = []
        write(value, to: &output)
        return output
    }

    private static func write(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .null:
            output += "null".utf8
        case .bool(let value):
            output += (value ? "true" : "false").utf8
        case .number(let value):
            output += serialize(number: value).utf8
        case .string(let value):
            appendString(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(element, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            appendMembers(members, to: &output, value: write)
        }
    }

    /// Appends a map of strings as a JSON object with its members in RFC 8785 order (UTF-16
    /// code units), written directly: the details of an audit entry, hashed and stored.
    package static func appendObject(_ members: [String: String], to output: inout [UInt8]) {
        appendMembers(members, to: &output, value: appendString)
    }

    /// An object's members, each value written by `value`: one loop for both kinds of object.
    private static func appendMembers<Value>(
        _ members: [String: Value], to output: inout [UInt8], value: (Value, inout [UInt8]) -> Void
    ) {
        output.append(UInt8(ascii: "{"))
        // UTF-16 order, not Swift's String order (which compares by Unicode scalars and
        // puts U+FB33 before U+1F600, the opposite of RFC 8785 §3.2.3).
        let names = members.keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
        for (index, name) in names.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            appendString(name, to: &output)
            output.append(UInt8(ascii: ":"))
            if let member = members[name] { value(member, &output) }
        }
        output.append(UInt8(ascii: "}"))
    }

    /// Appends `string` as a canonical JSON string: for writers that build canonical bytes
    /// directly, such as ``AuditEntry/canonicalContent()``.
    package static func appendString(_ string: String, to output: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        let digits = UnsafeBufferPointer(start: hex.utf8Start, count: 16)
        output.append(UInt8(ascii: "\""))
        // Most strings (ids, event names, hex) need no escape: checked and copied in one go over
        // the contiguous UTF-8 (a per-byte walk of `String.UTF8View` cost about 1 000
        // instructions a member, and an audit entry has a dozen).
        var contiguous = string
        let copied = contiguous.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if copied {
            output.append(UInt8(ascii: "\""))
            return
        }
        // Escapes only touch ASCII, so walking UTF-8 bytes leaves every other character intact.
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += #"\""#.utf8
            case UInt8(ascii: "\\"): output += #"\\"#.utf8
            case 0x08: output += #"\b"#.utf8
            case 0x0C: output += #"\f"#.utf8
            case 0x0A: output += #"\n"#.utf8
            case 0x0D: output += #"\r"#.utf8
            case 0x09: output += #"\t"#.utf8
            case 0x00..<0x20: output += #"\u00"#.utf8 + [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JCS {
    /// `Number.prototype.toString()` of ECMAScript (ECMA-262 Number::toString) for finite
    /// doubles, as RFC 8785 §3.2.2.3 requires; `"null"` for NaN and the infinities.
    static func serialize(number value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == 0 { return "0" }  // also -0
        // Swift's `description` gives the shortest digits that round-trip, and of those the
        // closest to the value: the same digits ECMAScript asks for. Only the layout differs.
        guard let (digits, exponent) = decimal(of: value.magnitude.description) else { return "null" }
        let sign = value < 0 ? "-" : ""
        // value = 0.d1d2…dk × 10^n, with k = digits.count and n = exponent.
        let k = digits.count
        let n = exponent
        if k <= n && n <= 21 {
            return sign + digits + String(repeating: "0", count: n - k)
        }
        if 0 < n && n <= 21 {
            return sign + digits.prefix(n) + "." + digits.dropFirst(n)
        }
        if -6 < n && n <= 0 {
            return sign + "0." + String(repeating: "0", count: -n) + digits
        }
        let exponentText = (n - 1 < 0 ? "-" : "+") + String((n - 1).magnitude)
        if k == 1 {
            return sign + digits + "e" + exponentText
        }
        return sign + digits.prefix(1) + "." + digits.dropFirst() + "e" + exponentText
    }

    /// Splits a positive decimal such as `"123.45"`, `"1e-07"` or `"5e-324"` into its
    /// significant digits (no leading or trailing zeros) and `n`, so that the value is
    /// `0.digits × 10^n`.
    private static func decimal(of text: String) -> (digits: String, exponent: Int)? {
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let value = Int(text[text.index(after: e)...]) else { return nil }
            exponent = value
            mantissa = text[..<e]
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let integerPart = parts[0]
        let fractionPart = parts.count == 2 ? parts[1] : ""
        var digits = Array(integerPart + fractionPart)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        // The point sits after the integer part; move it to the front of the digits.
        var pointPosition = integerPart.count + exponent
        while digits.first == "0" {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        guard !digits.isEmpty else { return nil }
        return (String(digits), pointPosition)
    }
}
