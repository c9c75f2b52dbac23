#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A bare TCP connection to 127.0.0.1, for what an HTTP client cannot do: send half a request
/// and stop, and see exactly when the server answers or hangs up. Blocking calls run on a
/// thread of their own, never on the test's executor.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    /// What the server did within the time allowed.
    struct Outcome: Sendable {
        /// Every byte received.
        var received: Data
        /// The server closed the connection (end of stream or reset).
        var closed: Bool
        /// How long until the connection was closed, or the wait gave up.
        var elapsed: Duration
        /// When the read ended, taken on the reading thread (a task resumed later on a busy
        /// cooperative pool would see a later time).
        var endedAt: ContinuousClock.Instant

        var text: String { String(decoding: received, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// - Parameter source: the loopback address to connect from (`127.0.0.2` is another client).
    init(port: Int, from source: String? = nil) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            // No close here: an initializer that throws once every property is set still runs
            // deinit, which closes the descriptor; a second close could hit a number another
            // thread (a server's accept) was just given.
            guard bound == 0 else { throw Failure(description: "bind() failed: \(errno)") }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw Failure(description: "connect() failed: \(errno)") }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        #if canImport(Glibc)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #else
        let sent = bytes.withUnsafeBytes { Darwin.send(descriptor, $0.baseAddress, $0.count, 0) }
        #endif
        guard sent == bytes.count else { throw Failure(description: "send() failed: \(errno)") }
    }

    /// Reads until the server closes the connection or `limit` passes.
    func readUntilClosed(limit: Duration) async -> Outcome {
        await read(limit: limit) { _ in false }
    }

    /// Reads until the server closes the connection, `limit` passes, or what was received
    /// satisfies `done`.
    func read(limit: Duration, until done: @escaping @Sendable (String) -> Bool) async -> Outcome {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                continuation.resume(returning: self.blockingRead(limit: limit, until: done))
            }
        }
    }

    private func blockingRead(limit: Duration, until done: (String) -> Bool) -> Outcome {
        let start = ContinuousClock.now
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let left = limit - (ContinuousClock.now - start)
            guard left > .zero else { return outcome(received, closed: false, since: start) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000)
            let ready = poll(&poller, 1, max(1, milliseconds))
            if ready <= 0 { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return outcome(received, closed: true, since: start) }
            received.append(contentsOf: buffer[..<count])
            if done(String(decoding: received, as: UTF8.self)) { return outcome(received, closed: false, since: start) }
        }
    }

    private func outcome(_ received: Data, closed: Bool, since start: ContinuousClock.Instant) -> Outcome {
        let now = ContinuousClock.now
        return Outcome(received: received, closed: closed, elapsed: now - start, endedAt: now)
    }
}
