/// Writes the tree of ``WireJSONEncoder`` as Foundation's `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` writes it.
enum WireJSONWriter {
    static func write(_ node: WireJSONNode, to output: inout [UInt8]) {
        switch node {
        case .pending: output.append(contentsOf: "{}".utf8)
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        // Foundation escapes strings exactly as RFC 8785 does (`"`, `\`, the controls below
        // U+0020 as `\b \t \n \f \r` or lower-case `\u00xx`; U+007F, `/` and non-ASCII as is).
        case .string(let value): JCS.appendString(value, to: &output)
        case .signed(let value):
            if value < 0 { output.append(UInt8(ascii: "-")) }
            writeDigits(value.magnitude, to: &output)
        case .unsigned(let value): writeDigits(value, to: &output)
        case .date(let seconds): writeDate(seconds, to: &output)
        case .raw(let bytes): output.append(contentsOf: bytes)
        case .container(let container):
            switch container.kind {
            case .object: writeObject(container, to: &output)
            case .array: writeArray(container, to: &output)
            case .root: if let top = container.members.first { write(top.value, to: &output) }
            }
        }
    }

    /// Members sorted by the UTF-8 bytes of their names (code point order), as Foundation
    /// sorts. A name encoded twice is written once, with the value encoded last, as Foundation
    /// keeps members in a dictionary.
    static func writeObject(_ object: WireJSONContainer, to output: inout [UInt8]) {
        let members = object.members
        output.append(UInt8(ascii: "{"))
        if members.count == 1 {
            writeMember(members[0].key, members[0].value, to: &output)
        } else if members.count > 1 {
            var order = Array(members.indices)
            order.sort { precedes(members[$0].key, members[$1].key) }
            var position = 0
            var first = true
            while position < order.count {
                // A run of equal names: the first spelling, the last value.
                var spelling = order[position]
                var latest = order[position]
                while position + 1 < order.count, members[order[position + 1]].key == members[spelling].key {
                    position += 1
                    spelling = min(spelling, order[position])
                    latest = max(latest, order[position])
                }
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                writeMember(members[spelling].key, members[latest].value, to: &output)
                position += 1
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    /// Code point order, which is the order of the UTF-8 bytes (not `String`'s `<`, which
    /// compares canonical equivalents as equal), read from the contiguous storage for speed.
    static func precedes(_ left: String, _ right: String) -> Bool {
        let fast = left.utf8.withContiguousStorageIfAvailable { leftBytes in
            right.utf8.withContiguousStorageIfAvailable { rightBytes in leftBytes.lexicographicallyPrecedes(rightBytes) }
        }
        if let fast, let result = fast { return result }
        return left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    private static func writeMember(_ key: String, _ value: WireJSONNode, to output: inout [UInt8]) {
        JCS.appendString(key, to: &output)
        output.append(UInt8(ascii: ":"))
        write(value, to: &output)
    }

    static func writeArray(_ array: WireJSONContainer, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        for (index, element) in array.members.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            write(element.value, to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }

    /// Decimal digits, written in place from the right (no intermediate string).
    static func writeDigits(_ value: UInt64, to output: inout [UInt8]) {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        writeDigits(value, width: count, to: &output)
    }

    /// `value` in exactly `width` digits, zero-padded on the left.
    private static func writeDigits(_ value: UInt64, width: Int, to output: inout [UInt8]) {
        let start = output.count
        output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
        var rest = value
        var position = start + width - 1
        while rest > 0, position >= start {
            output[position] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            position -= 1
        }
    }

    /// `yyyy-MM-ddTHH:mm:ssZ` for whole seconds since 1970 within years 1583 to 9999 (the
    /// proleptic Gregorian calendar, ``CivilDate``).
    static func writeDate(_ seconds: Int64, to output: inout [UInt8]) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let date = CivilDate(daysSince1970: days)
        output.append(UInt8(ascii: "\""))
        writeDigits(UInt64(date.year), width: 4, to: &output)
        output.append(UInt8(ascii: "-"))
        writeDigits(UInt64(date.month), width: 2, to: &output)
        output.append(UInt8(ascii: "-"))
        writeDigits(UInt64(date.day), width: 2, to: &output)
        output.append(UInt8(ascii: "T"))
        writeDigits(UInt64(secondOfDay / 3_600), width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        writeDigits(UInt64(secondOfDay / 60 % 60), width: 2, to: &output)
        output.append(UInt8(ascii: ":"))
        writeDigits(UInt64(secondOfDay % 60), width: 2, to: &output)
        output.append(contentsOf: "Z\"".utf8)
    }
}
