import Crypto
import Synchronization

/// Authenticated encryption of secrets at rest (TOTP seeds, signing keys) under the server
/// key, and keyed hashes of one-time codes.
package struct SecretBox: Sendable {
    /// The length of the server key, in bytes.
    package static let keyByteCount = 32

    private let key: SymmetricKey
    /// The MAC subkeys derived so far, one per purpose (deriving one cost more than
    /// the MAC it keys, on every challenge). Purposes are fixed labels, so this stays small.
    private let subkeys = SubkeyCache()

    /// - Parameter key: The server key: 256 bits from the key file or the environment.
    /// - Precondition: `key` is 256 bits long. Check `key.bitCount` when loading it.
    package init(key: SymmetricKey) {
        precondition(key.bitCount == Self.keyByteCount * 8, "the SecretBox key must be 256 bits")
        self.key = key
    }

    /// Encrypts and authenticates `plaintext` with AES-256-GCM under a fresh random nonce.
    ///
    /// - Parameters:
    ///   - plaintext: The secret.
    ///   - context: What the secret is, e.g. `"totp-seed|usr_123"`. It is bound as associated
    ///     data, so a sealed TOTP seed cannot be opened as a signing key or as another user's seed.
    /// - Returns: `nonce (12 bytes) || ciphertext || tag (16 bytes)`.
    /// - Throws: An error from the cipher, which does not happen with a valid key.
    package func seal(_ plaintext: [UInt8], context: String) throws -> [UInt8] {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: Array(context.utf8))
        return Array(box.nonce) + Array(box.ciphertext) + Array(box.tag)
    }

    /// Decrypts what ``seal(_:context:)`` produced.
    ///
    /// - Parameters:
    ///   - sealed: `nonce || ciphertext || tag`.
    ///   - context: The context given when sealing.
    /// - Throws: ``SecretBoxError/cannotOpen`` when the bytes were altered or truncated, the
    ///   context differs, or another key sealed them; the cases are not told apart.
    package func open(_ sealed: [UInt8], context: String) throws -> [UInt8] {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return Array(try AES.GCM.open(box, using: key, authenticating: Array(context.utf8)))
        } catch {
            throw SecretBoxError.cannotOpen
        }
    }

    /// HMAC-SHA256 of `message` under a subkey for `purpose`, for storing one-time codes and
    /// tokens as keyed hashes: a stolen database then does not let anyone test guesses offline.
    ///
    /// The subkey is HKDF-SHA256 of the server key with info `"sca-v1|" + purpose`, so a MAC
    /// made for one purpose never verifies for another, and no MAC is made under the
    /// encryption key itself.
    ///
    /// - Parameters:
    ///   - message: What to authenticate.
    ///   - purpose: A fixed label, e.g. `"otp"` or `"refresh-token"`.
    /// - Returns: The 32-byte MAC.
    package func mac(_ message: [UInt8], purpose: String) -> [UInt8] {
        let subkey = subkeys.key(for: purpose) {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Array("sca-v1|\(purpose)".utf8), outputByteCount: 32)
        }
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: subkey))
    }
}

/// Subkeys by purpose, derived once and shared by every copy of a ``SecretBox``.
private final class SubkeyCache: Sendable {
    private let keys = Mutex<[String: SymmetricKey]>([:])

    func key(for purpose: String, derive: () -> SymmetricKey) -> SymmetricKey {
        if let known = keys.withLock({ $0[purpose] }) { return known }
        // Derived outside the lock: two first uses at once derive the same key twice.
        let derived = derive()
        keys.withLock { $0[purpose] = derived }
        return derived
    }
}
