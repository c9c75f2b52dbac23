/// Decodes the CBOR subset of ``CBORValue`` from untrusted bytes.
///
/// Every input either decodes or throws a ``CBORError``: lengths are checked against the bytes
/// that are left before anything is allocated (a declared length of 2^64 costs nothing), and
/// nesting and the number of items are bounded so that hostile input can exhaust neither the
/// stack nor the time spent checking map keys for duplicates.
package struct CBORDecoder: Sendable {
    /// How deep arrays and maps may nest. WebAuthn's structures nest three levels at most.
    package var maximumDepth: Int
    /// How many items one decode may meet in all. An attestation object holds a few dozen.
    package var maximumItems: Int

    package init(maximumDepth: Int = 16, maximumItems: Int = 1024) {
        self.maximumDepth = maximumDepth
        self.maximumItems = maximumItems
    }

    /// Decodes one item that must span all of `bytes`.
    package func decode(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        let (value, end) = try decodePrefix(bytes, from: 0)
        guard end == bytes.count else { throw .trailingBytes }
        return value
    }

    /// Decodes the item that starts at `start` and returns it with the index just past it.
    ///
    /// Authenticator data needs this: its credential public key is followed by more data.
    package func decodePrefix(_ bytes: [UInt8], from start: Int) throws(CBORError) -> (CBORValue, Int) {
        guard start >= 0, start <= bytes.count else { throw .truncated }
        var reader = Reader(bytes: bytes, position: start, itemsLeft: maximumItems)
        let value = try reader.item(depth: 0, maximumDepth: maximumDepth)
        return (value, reader.position)
    }
}

/// A cursor over the input.
private struct Reader {
    let bytes: [UInt8]
    var position: Int
    var itemsLeft: Int

    var remaining: Int { bytes.count - position }

    mutating func byte() throws(CBORError) -> UInt8 {
        guard position < bytes.count else { throw .truncated }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func take(_ count: UInt64) throws(CBORError) -> [UInt8] {
        guard count <= UInt64(remaining) else { throw .truncated }
        let end = position + Int(count)
        defer { position = end }
        return Array(bytes[position..<end])
    }

    /// The argument of a header: the additional information itself below 24, else the 1, 2,
    /// 4 or 8 bytes after it, big-endian.
    mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
        let width: Int
        switch info {
        case 0..<24: return UInt64(info)
        case 24: width = 1
        case 25: width = 2
        case 26: width = 4
        case 27: width = 8
        default: throw .unsupported  // 28-30 reserved, 31 indefinite length
        }
        var value: UInt64 = 0
        for _ in 0..<width {
            value = value << 8 | UInt64(try byte())
        }
        return value
    }

    mutating func item(depth: Int, maximumDepth: Int) throws(CBORError) -> CBORValue {
        guard itemsLeft > 0 else { throw .tooManyItems }
        itemsLeft -= 1
        let header = try byte()
        let major = header >> 5
        let info = header & 0x1f
        switch major {
        case 0:
            return .unsigned(try argument(info))
        case 1:
            return .negative(try argument(info))
        case 2:
            return .bytes(try take(try argument(info)))
        case 3:
            let raw = try take(try argument(info))
            guard let text = String(validating: raw, as: UTF8.self) else { throw .invalidText }
            return .text(text)
        case 4:
            let count = try argument(info)
            // Each item takes at least one byte: a larger count cannot be honest.
            guard count <= UInt64(remaining) else { throw .truncated }
            guard depth < maximumDepth else { throw .tooDeep }
            var items: [CBORValue] = []
            items.reserveCapacity(Int(count))
            for _ in 0..<count {
                items.append(try item(depth: depth + 1, maximumDepth: maximumDepth))
            }
            return .array(items)
        case 5:
            let count = try argument(info)
            guard count <= UInt64(remaining) / 2 else { throw .truncated }
            guard depth < maximumDepth else { throw .tooDeep }
            var entries: [CBORMapEntry] = []
            entries.reserveCapacity(Int(count))
            for _ in 0..<count {
                let key = try item(depth: depth + 1, maximumDepth: maximumDepth)
                let value = try item(depth: depth + 1, maximumDepth: maximumDepth)
                guard !entries.contains(where: { $0.key == key }) else { throw .duplicateKey }
                entries.append(CBORMapEntry(key: key, value: value))
            }
            return .map(entries)
        case 7:
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            default: throw .unsupported  // other simple values and floats
            }
        default:
            throw .unsupported  // major type 6: tags
        }
    }
}
