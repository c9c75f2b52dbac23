import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Owner-only files for keys, bindings and tokens.
///
/// A file is written to a temporary name created with mode 0600 from the start (`open(2)` with
/// `O_EXCL`), then renamed over the old one: no other user can ever read a half-written or
/// world-readable copy, and a reader sees either the old content or the new.
///
/// Package access: the terminal app `sca` keeps its authenticator seeds and profile the same
/// way, so there is one implementation of the rule, not a copy that drifts.
package enum ProtectedFile {
    /// Mode of every file the SDK writes.
    package static let fileMode: mode_t = 0o600
    /// Mode of a directory the SDK creates.
    package static let directoryMode: mode_t = 0o700

    /// An I/O failure, with the path and the C error.
    package struct IOError: Error, CustomStringConvertible {
        package var operation: String
        package var path: String
        package var code: Int32

        package var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
    }

    /// Creates `directory` (and its parents) owner-only if it is missing.
    package static func ensureDirectory(_ directory: URL) throws {
        if !FileManager.default.fileExists(atPath: directory.path) {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: Int(directoryMode)])
        }
    }

    /// The file's bytes, or nil when it does not exist.
    package static func read(_ url: URL) throws -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    /// Replaces the file with `data`, mode 0600.
    package static func write(_ data: Data, to url: URL) throws {
        try ensureDirectory(url.deletingLastPathComponent())
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw IOError(operation: "open", path: temporary, code: errno) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do {
            // The umask may only remove bits, but make the mode exact rather than rely on it.
            guard fchmod(descriptor, fileMode) == 0 else { throw IOError(operation: "chmod", path: temporary, code: errno) }
            try data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    guard let base = buffer.baseAddress else { break }
                    let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw IOError(operation: "write", path: temporary, code: errno)
                    }
                    offset += written
                }
            }
            guard fsync(descriptor) == 0 else { throw IOError(operation: "fsync", path: temporary, code: errno) }
            closed = true
            guard close(descriptor) == 0 else { throw IOError(operation: "close", path: temporary, code: errno) }
            guard rename(temporary, url.path) == 0 else { throw IOError(operation: "rename", path: url.path, code: errno) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Deletes the file; a missing file is fine.
    package static func remove(_ url: URL) throws {
        guard unlink(url.path) == 0 || errno == ENOENT else {
            throw IOError(operation: "unlink", path: url.path, code: errno)
        }
    }
}

/// `write(2)`, named apart from `ProtectedFile.write`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(descriptor, buffer, count)
    #elseif canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, buffer, count)
    #endif
}
