import Foundation

/// The IP ranges a request the server makes on a partner's behalf (a webhook) must not reach:
/// the special-purpose and non-public ranges of the IANA IPv4 and IPv6 special-purpose
/// address registries. Reaching them would let whoever registers a URL probe or call services
/// inside the operator's network (server-side request forgery). Pure: no resolution here.
package enum SpecialPurposeAddress {
    /// Why an address is refused; the raw value is what the audit trail and problems say.
    package enum Kind: String, Sendable, CaseIterable {
        /// `0.0.0.0/8`, `::/128`.
        case unspecified
        /// `127.0.0.0/8`, `::1/128`, and the name `localhost`.
        case loopback
        /// `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`.
        case privateUse = "private"
        /// `169.254.0.0/16`, `fe80::/10`.
        case linkLocal = "link_local"
        /// `fc00::/7` (and the deprecated site-local `fec0::/10`).
        case uniqueLocal = "unique_local"
        /// `100.64.0.0/10`, carrier-grade NAT.
        case sharedAddressSpace = "shared"
        /// `224.0.0.0/4`, `ff00::/8`.
        case multicast
        /// `192.0.2.0/24`, `198.51.100.0/24`, `203.0.113.0/24`, `2001:db8::/32`.
        case documentation
        /// `198.18.0.0/15`.
        case benchmarking
        /// `192.0.0.0/24`, `240.0.0.0/4` (with `255.255.255.255`), `100::/64`, `2001::/23`,
        /// and IPv4-compatible `::/96`.
        case reserved
    }

    /// The kind of an IP literal (`203.0.113.7`, `[::1]`, `::ffff:10.0.0.1`, also the
    /// shorthand IPv4 forms a resolver accepts, `127.1` or `2130706433`) or of the name
    /// `localhost`; nil for a public address or a host name (which is checked once resolved).
    package static func kind(ofHost host: String) -> Kind? {
        var lowered = host.lowercased()
        // A final dot names the same host (`127.0.0.1.`, `localhost.`).
        if lowered.hasSuffix(".") { lowered.removeLast() }
        if lowered == "localhost" || lowered.hasSuffix(".localhost") { return .loopback }
        guard let bytes = literal(lowered) else { return nil }
        return kind(of: bytes)
    }

    /// Whether the server may connect to `bytes` (4 or 16) on a partner's behalf: the one
    /// decision every outbound check makes, on each address a name resolves to.
    package static func isPublic(_ bytes: [UInt8]) -> Bool {
        kind(of: bytes) == nil
    }

    /// The bytes of an IP literal (4 or 16), or nil when `host` is not one. Brackets and an
    /// IPv6 zone (`%eth0`) are allowed.
    package static func literal(_ host: String) -> [UInt8]? {
        var text = host
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
        if text.hasSuffix("."), !text.contains(":") { text.removeLast() }
        guard !text.isEmpty, text.count <= 64 else { return nil }
        if text.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
            return withUnsafeBytes(of: &address) { Array($0) }
        }
        // `inet_aton` takes the forms a resolver takes too (`127.1`, `0x7f.1`, `2130706433`).
        guard text.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == "x" || $0 == "X" }) else { return nil }
        var address = in_addr()
        guard inet_aton(text, &address) != 0 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// The kind of a 4-byte (IPv4) or 16-byte (IPv6) address; nil when it is public.
    package static func kind(of bytes: [UInt8]) -> Kind? {
        switch bytes.count {
        case 4: return kind(ipv4: bytes)
        case 16: return kind(ipv6: bytes)
        default: return .reserved
        }
    }

    private static func kind(ipv4 a: [UInt8]) -> Kind? {
        switch (a[0], a[1], a[2]) {
        case (0, _, _): return .unspecified
        case (10, _, _): return .privateUse
        case (100, 64...127, _): return .sharedAddressSpace
        case (127, _, _): return .loopback
        case (169, 254, _): return .linkLocal
        case (172, 16...31, _): return .privateUse
        case (192, 0, 0): return .reserved
        case (192, 0, 2), (198, 51, 100), (203, 0, 113): return .documentation
        case (192, 168, _): return .privateUse
        case (198, 18...19, _): return .benchmarking
        case (224...239, _, _): return .multicast
        case (240...255, _, _): return .reserved
        default: return nil
        }
    }

    private static func kind(ipv6 a: [UInt8]) -> Kind? {
        let firstTen = a[0..<10].allSatisfy { $0 == 0 }
        // IPv4-mapped `::ffff:0:0/96` and the NAT64 well-known prefix `64:ff9b::/96` carry an
        // IPv4 address: judge that one.
        if firstTen, a[10] == 0xff, a[11] == 0xff { return kind(ipv4: Array(a[12..<16])) }
        if a[0..<12].elementsEqual([0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0]) { return kind(ipv4: Array(a[12..<16])) }
        // IPv4-translated `::ffff:0:0:0/96` carries one too.
        if a[0..<8].allSatisfy({ $0 == 0 }), a[8] == 0xff, a[9] == 0xff, a[10] == 0, a[11] == 0 {
            return kind(ipv4: Array(a[12..<16])) ?? .reserved
        }
        // 6to4 `2002::/16` embeds an IPv4 address in bytes 2 to 5 (`2002:a9fe:a9fe::` is
        // 169.254.169.254): refused when that one is.
        if a[0] == 0x20, a[1] == 0x02, let embedded = kind(ipv4: Array(a[2..<6])) { return embedded }
        // The local-use NAT64 prefix `64:ff9b:1::/48` translates to whatever the operator routes.
        if a[0..<6].elementsEqual([0x00, 0x64, 0xff, 0x9b, 0x00, 0x01]) { return .reserved }
        if firstTen, a[10] == 0, a[11] == 0 {
            if a[12..<15].allSatisfy({ $0 == 0 }) {
                if a[15] == 0 { return .unspecified }
                if a[15] == 1 { return .loopback }
            }
            return .reserved
        }
        switch (a[0], a[1]) {
        case (0xff, _): return .multicast
        case (0xfe, 0x80...0xbf): return .linkLocal
        case (0xfe, 0xc0...0xff): return .uniqueLocal
        case (0xfc...0xfd, _): return .uniqueLocal
        case (0x20, 0x01) where a[2] == 0x0d && a[3] == 0xb8: return .documentation
        case (0x20, 0x01) where a[2] <= 0x01: return .reserved
        case (0x01, 0x00) where a[2..<8].allSatisfy({ $0 == 0 }): return .reserved
        default: return nil
        }
    }
}
