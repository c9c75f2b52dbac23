#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A loopback TCP proxy between the server and its database that a test can cut and restore,
/// to take the database away mid-run without stopping it (no root, no other test disturbed).
///
/// Cut, it behaves like a database host that went away: established connections go silent
/// (bytes are swallowed in both directions, nothing is closed, as when packets are dropped)
/// and new connections are refused. Restored, the silent connections are closed (their peer
/// is gone for good) and new connections are forwarded again, on the same port.
/// Plain blocking sockets, a thread per direction: a test tool, not a server.
final class TCPProxy: @unchecked Sendable {
    /// The port to connect to instead of the target's.
    let port: Int
    private let targetPort: Int
    private let lock = NSLock()
    private var listener: Int32 = -1
    private var forwarding = true
    private var sockets: Set<Int32> = []
    private var closed = false

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Listens on 127.0.0.1 (a free port) and forwards to 127.0.0.1:`targetPort`.
    init(targetPort: Int) throws {
        self.targetPort = targetPort
        let (descriptor, bound) = try Self.listen(port: 0)
        port = bound
        listener = descriptor
        startAccepting(descriptor)
    }

    deinit {
        close()
    }

    /// The database goes away: silence on open connections, refusal of new ones.
    func cut() {
        let old: Int32 = lock.withLock {
            forwarding = false
            defer { listener = -1 }
            return listener
        }
        if old >= 0 {
            // shutdown wakes the thread blocked in accept(); close alone does not on Linux.
            _ = shutdown(old, Int32(SHUT_RDWR))
            _ = closeDescriptor(old)
        }
    }

    /// The database is back: the silent connections are dropped, new ones forwarded.
    func restore() throws {
        let stale: Set<Int32> = lock.withLock {
            forwarding = true
            defer { sockets = [] }
            return sockets
        }
        for descriptor in stale { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        let (descriptor, _) = try Self.listen(port: port)
        lock.withLock { listener = descriptor }
        startAccepting(descriptor)
    }

    /// Stops everything for good.
    func close() {
        let (old, open): (Int32, Set<Int32>) = lock.withLock {
            closed = true
            defer {
                listener = -1
                sockets = []
            }
            return (listener, sockets)
        }
        if old >= 0 {
            _ = shutdown(old, Int32(SHUT_RDWR))
            _ = closeDescriptor(old)
        }
        for descriptor in open { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    // MARK: Sockets

    private static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func listen(port: Int) throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.address(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listenOn(descriptor) == 0 else {
            _ = closeDescriptor(descriptor)
            throw Failure(description: "cannot listen on 127.0.0.1:\(port) (errno \(errno))")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
    }

    private func startAccepting(_ descriptor: Int32) {
        let thread = Thread { [self] in
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }  // shut down by cut() or close()
                let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var address = Self.address(port: targetPort)
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                let accepted: Bool = lock.withLock {
                    guard connected == 0, forwarding, !closed else { return false }
                    sockets.insert(client)
                    sockets.insert(upstream)
                    return true
                }
                guard accepted else {
                    _ = closeDescriptor(client)
                    _ = closeDescriptor(upstream)
                    continue
                }
                let pair = Pair()
                pump(from: client, to: upstream, pair: pair)
                pump(from: upstream, to: client, pair: pair)
            }
        }
        thread.start()
    }

    /// Copies bytes one way while forwarding; swallows them while cut; on end of stream or
    /// error shuts both sockets down (the other direction's thread closes them).
    private func pump(from source: Int32, to destination: Int32, pair: Pair) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                guard lock.withLock({ forwarding && sockets.contains(source) }) else { continue }
                var sent = 0
                while sent < count {
                    // MSG_NOSIGNAL: a peer gone is an error here, not a SIGPIPE for the test process.
                    let written = buffer.withUnsafeBytes {
                        send(destination, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
                    }
                    guard written > 0 else { break }
                    sent += written
                }
            }
            _ = shutdown(source, Int32(SHUT_RDWR))
            _ = shutdown(destination, Int32(SHUT_RDWR))
            let last: Bool = lock.withLock {
                sockets.remove(source)
                sockets.remove(destination)
                pair.finished += 1
                return pair.finished == 2
            }
            // The second direction to end closes both descriptors, so neither is reused early.
            if last {
                _ = closeDescriptor(source)
                _ = closeDescriptor(destination)
            }
        }
        thread.start()
    }

    /// The two directions of one proxied connection.
    private final class Pair: @unchecked Sendable {
        var finished = 0
    }
}

private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(descriptor)
    #else
    Darwin.close(descriptor)
    #endif
}

private func listenOn(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.listen(descriptor, 64)
    #else
    Darwin.listen(descriptor, 64)
    #endif
}
