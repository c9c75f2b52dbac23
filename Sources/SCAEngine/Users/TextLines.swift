import Foundation

/// The lines of a text file, read a megabyte at a time, so that a file of a million users is
/// never in memory at once.
package struct TextLines: Sendable {
    let path: String

    package init(path: String) {
        self.path = path
    }

    /// Hands each line (without its line break) and its number, from 1, to `body`.
    /// - Throws: when the file cannot be read, or what `body` throws.
    package func forEach(_ body: (_ number: Int, _ line: String) async throws -> Void) async throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw UserImportError("cannot read \(path)") }
        defer { try? handle.close() }
        var pending: [UInt8] = []
        var number = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            pending += chunk
            var start = pending.startIndex
            while let end = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                number += 1
                try await body(number, Self.text(pending[start..<end]))
                start = end + 1
            }
            pending.removeSubrange(..<start)
        }
        if !pending.isEmpty {
            number += 1
            try await body(number, Self.text(pending[...]))
        }
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        var bytes = bytes
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
