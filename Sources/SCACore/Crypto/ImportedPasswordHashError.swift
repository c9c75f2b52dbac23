/// Why a password hash brought from another system was refused.
///
/// `sca-server user import` prints ``description`` beside the number of the line it refused,
/// so each case says what is wrong; none of them repeats the salt or the hash.
package enum ImportedPasswordHashError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A scheme this server does not verify, named as the string or Keycloak names it
    /// (`2x`, `argon2i`, `pbkdf2-sha512`, `scrypt`…).
    case unsupportedAlgorithm(String)
    /// An Argon2 version other than 19 (0x13), as written after `v=`, or "none" when the
    /// string has no `v=` field (which means the old version 16).
    case unsupportedVersion(String)
    /// A cost parameter outside what this server agrees to compute at a login.
    case costOutOfRange(parameter: String, value: Int, allowed: ClosedRange<Int>)
    /// A salt or hash whose length in bytes is outside what this server accepts.
    case lengthOutOfRange(field: String, byteCount: Int, allowed: ClosedRange<Int>)
    /// Not well formed: says which part.
    case malformed(String)

    package var description: String {
        switch self {
        case .unsupportedAlgorithm(let name):
            "unsupported algorithm \(name)"
        case .unsupportedVersion(let version):
            "unsupported Argon2 version \(version) (only v=19 is supported)"
        case .costOutOfRange(let parameter, let value, let allowed):
            "\(parameter) = \(value) is outside \(allowed.lowerBound)...\(allowed.upperBound)"
        case .lengthOutOfRange(let field, let byteCount, let allowed):
            "\(field) of \(byteCount) bytes is outside \(allowed.lowerBound)...\(allowed.upperBound) bytes"
        case .malformed(let reason):
            "malformed: \(reason)"
        }
    }
}
