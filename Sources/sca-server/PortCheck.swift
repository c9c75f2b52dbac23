import Foundation

#if canImport(Glibc)
import Glibc
import SCAEngine
#endif

/// Whether `serve` can listen where it is told to, asked before anything is printed or
/// seeded: a port in use is one clear line naming the port and `--port`, not the demo's
/// banner followed by the network stack's error.
enum PortCheck {
    /// True when a socket could bind `host:port` now (with the address reuse the server's own
    /// listener uses, so a port in `TIME_WAIT` is not taken for busy). Port 0 is always free;
    /// a host that does not resolve is left for the server to report.
    static func isFree(host: String, port: Int) -> Bool {
        guard port != 0 else { return true }
        return HostResolver.withAddressInfo(host: host, service: String(port), passive: true) { first in
            let descriptor = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
            guard descriptor >= 0 else { return true }
            defer { close(descriptor) }
            var one: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            return bind(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0
        } ?? true
    }
}
