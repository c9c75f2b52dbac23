import Foundation
import SCACore
import Synchronization

/// Tokens as JSON in one owner-only file (mode 0600), so a terminal app stays signed in between
/// runs. The refresh token in it is a bearer secret: keep the file in a private directory.
public final class FileTokenStore: TokenStore {
    /// The JSON file.
    public let file: URL
    /// Serialises this instance's reads and writes (each is synchronous inside the lock).
    private let lock = Mutex(())

    /// - Parameter file: where the tokens are kept; its directory is created (0700) when missing.
    public init(file: URL) {
        self.file = file
    }

    /// - Returns: the stored tokens, or nil when there is no file.
    /// - Throws: an I/O or decoding error when the file is unreadable.
    public func load() async throws -> StoredTokens? {
        try lock.withLock { _ in
            guard let data = try ProtectedFile.read(file) else { return nil }
            return try WireJSON.decoder().decode(StoredTokens.self, from: data)
        }
    }

    /// - Parameter tokens: written atomically, mode 0600.
    /// - Throws: an I/O error when the file cannot be written.
    public func save(_ tokens: StoredTokens) async throws {
        let data = try WireJSON.encoder().encode(tokens)
        try lock.withLock { _ in try ProtectedFile.write(data, to: file) }
    }

    /// Deletes the file.
    /// - Throws: an I/O error when it cannot be deleted.
    public func clear() async throws {
        try lock.withLock { _ in try ProtectedFile.remove(file) }
    }
}
