#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes files only the owner may read (authenticator seeds, the profile), atomically: the
/// bytes go to a fresh 0600 file next to the target, which then replaces it, so there is never
/// a moment where the secret sits in a file with looser permissions or half written.
enum SecureFile {
    static func write(_ data: Data, to file: URL) throws {
        let temporary = file.deletingLastPathComponent()
            .appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw failure("create", temporary) }
        let ok = data.withUnsafeBytes { buffer -> Bool in
            var written = 0
            if let base = buffer.baseAddress {
                while written < buffer.count {
                    let count = writeBytes(descriptor, base + written, buffer.count - written)
                    if count < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    written += count
                }
            }
            return fsync(descriptor) == 0
        }
        close(descriptor)
        guard ok, rename(temporary.path, file.path) == 0 else {
            let error = failure("write", file)
            unlink(temporary.path)
            throw error
        }
    }

    /// The system call, named apart from `write(_:to:)` above.
    private static func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
        #elseif canImport(Musl)
        Musl.write(descriptor, bytes, count)
        #else
        Darwin.write(descriptor, bytes, count)
        #endif
    }

    private static func failure(_ action: String, _ file: URL) -> AppError {
        AppError("app.file", "could not \(action) \(file.path): \(String(cString: strerror(errno)))")
    }
}
