import SCACore
import Synchronization

/// The addresses each outbound request resolved and checked, for the ``ConnectTunnelHandler``
/// that makes its connection: the tunnel connects only to an address pinned for the host and
/// port it is asked for, and never resolves a name itself, so a second answer of the DNS
/// (rebinding) cannot move a connection after the check.
package final class OutboundPins: Sendable {
    private struct Table {
        var nextToken: UInt64 = 0
        /// ``key(host:port:)`` → each pinning request's addresses.
        var pins: [String: [UInt64: [[UInt8]]]] = [:]
    }
    private let table = Mutex(Table())

    package init() {}

    /// One spelling per destination, whichever form the caller and the HTTP client use: lower
    /// case, without brackets or a final dot, an IP literal as its bytes.
    package static func key(host: String, port: Int) -> String {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        if let bytes = SpecialPurposeAddress.literal(name) {
            name = bytes.map { String($0) }.joined(separator: ",")
        }
        return "\(name) \(port)"
    }

    /// Lets one request's connection to `host`:`port` go to `addresses`, until ``unpin(_:host:port:)``.
    package func pin(_ addresses: [[UInt8]], host: String, port: Int) -> UInt64 {
        table.withLock { table in
            table.nextToken += 1
            table.pins[Self.key(host: host, port: port), default: [:]][table.nextToken] = addresses
            return table.nextToken
        }
    }

    package func unpin(_ token: UInt64, host: String, port: Int) {
        let key = Self.key(host: host, port: port)
        table.withLock { table in
            table.pins[key]?[token] = nil
            if table.pins[key]?.isEmpty == true { table.pins[key] = nil }
        }
    }

    /// The addresses a connection to `host`:`port` may go to: those every request now pinned
    /// to it checked (the HTTP client may hand a new connection to any of them), in the order
    /// of the earliest; empty when none is pinned or they share none.
    package func addresses(host: String, port: Int) -> [[UInt8]] {
        table.withLock { table in
            guard let pinned = table.pins[Self.key(host: host, port: port)], !pinned.isEmpty else { return [] }
            let ordered = pinned.sorted { $0.key < $1.key }.map(\.value)
            return ordered[0].filter { address in ordered.allSatisfy { $0.contains(address) } }
        }
    }
}
