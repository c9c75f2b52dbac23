import Foundation
import SCACore

/// The development sender: appends each message as one JSON line to `outbox.jsonl` under the
/// data directory, where a developer (or a test) reads the code.
package actor OutboxMessageSender: MessageSender {
    package nonisolated let path: String

    package init(path: String) {
        self.path = path
    }

    package func send(_ message: OutboundMessage) async throws {
        var line = try WireJSON.encoder().encode(message)
        line.append(UInt8(ascii: "\n"))
        let url = URL(fileURLWithPath: path)
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            // The outbox holds live codes: readable by the server's user only.
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: line)
    }

    /// Every message in the outbox, oldest first (for tests and the demo).
    package nonisolated func messages() throws -> [OutboundMessage] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let decoder = WireJSON.decoder()
        return try data.split(separator: UInt8(ascii: "\n")).map { try decoder.decode(OutboundMessage.self, from: Data($0)) }
    }
}
