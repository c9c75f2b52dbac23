import Foundation

/// Resolves a host name to its addresses with the system resolver, off the cooperative pool
/// (`getaddrinfo` blocks). Used to refuse a webhook whose name resolves to a special-purpose
/// address (DNS rebinding: a name that was public at registration can point inside later).
package enum HostResolver {
    /// Every address `host` resolves to, as 4- or 16-byte arrays; empty when it does not resolve.
    static func addresses(of host: String) async -> [[UInt8]] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: resolve(host))
            }
        }
    }

    /// Runs `body` over the system resolver's stream-socket answers for `host` (and `service`,
    /// a port), freed afterwards; nil when it does not resolve. `passive` asks for addresses to
    /// bind rather than to connect to.
    package static func withAddressInfo<Result>(
        host: String, service: String? = nil, passive: Bool = false, _ body: (UnsafeMutablePointer<addrinfo>) -> Result
    ) -> Result? {
        var hints = addrinfo()
        if passive { hints.ai_flags = AI_PASSIVE }
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, service, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        return body(first)
    }

    private static func resolve(_ host: String) -> [[UInt8]] {
        withAddressInfo(host: host) { first in
            var found: [[UInt8]] = []
            var cursor: UnsafeMutablePointer<addrinfo>? = first
            while let entry = cursor {
                if let address = entry.pointee.ai_addr {
                    switch Int32(entry.pointee.ai_family) {
                    case AF_INET:
                        var ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                        found.append(withUnsafeBytes(of: &ipv4) { Array($0) })
                    case AF_INET6:
                        var ipv6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                        found.append(withUnsafeBytes(of: &ipv6) { Array($0) })
                    default: break
                    }
                }
                cursor = entry.pointee.ai_next
            }
            return found
        } ?? []
    }
}
