import Foundation

/// A client address as its owner is shown it: the network, never the host. An IPv4 address is
/// cut to its /24 (`203.0.113.0/24`), an IPv6 address to its /48 (`2001:db8:1::/48`), which says
/// "from home" or "from somewhere else" without pinning a household or a phone. An IPv4 address
/// written inside IPv6 (`::ffff:203.0.113.7`) reads as the IPv4 it is.
public enum CoarseAddress {
    /// - Returns: the network of `address`, or nil when it is not an IP address.
    public static func of(_ address: String) -> String? {
        let trimmed = address.trimmingCharacters(in: .whitespaces)
        if let v4 = ipv4(trimmed) { return "\(v4[0]).\(v4[1]).\(v4[2]).0/24" }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("::ffff:"), let v4 = ipv4(String(lower.dropFirst(7))) {
            return "\(v4[0]).\(v4[1]).\(v4[2]).0/24"
        }
        guard let groups = ipv6(lower) else { return nil }
        let prefix = groups[0..<3].map { String($0, radix: 16) }
        // Trailing zero groups of the prefix fold into `::` as an address is usually written.
        var kept = prefix
        while let last = kept.last, last == "0" { kept.removeLast() }
        return kept.isEmpty ? "::/48" : kept.joined(separator: ":") + "::/48"
    }

    private static func ipv4(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let value = Int(part), (0...255).contains(value)
            else { return nil }
            octets.append(value)
        }
        return octets
    }

    /// The eight 16-bit groups of an IPv6 address (a zone after `%` ignored), or nil.
    private static func ipv6(_ text: String) -> [UInt16]? {
        let address = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? ""
        guard address.contains(":"), address.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        let halves = address.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains("."), let v4 = ipv4(String(piece)) {
                    result.append(UInt16(v4[0] << 8 | v4[1]))
                    result.append(UInt16(v4[2] << 8 | v4[3]))
                    continue
                }
                guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                result.append(value)
            }
            return result
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count < 8 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }
}
