import Foundation

/// The rules for a user's profile: a display `name`, and up to ``maxKeys`` custom
/// attributes whose keys are `[a-z][a-z0-9_]{0,31}` and whose values are display text (no
/// control, format or bidirectional characters; ``DisplayText``), ``maxTotalBytes`` in all.
/// Which of them go into access tokens is the configuration's `tokenClaims`, never a name a
/// token already uses (``reservedClaimNames``).
package enum UserAttributes {
    package static let maxKeys = 20
    /// UTF-8 bytes of every key and value together.
    package static let maxTotalBytes = 4_096
    /// Characters of one value, and of `name`.
    package static let maxValueLength = 1_024
    /// The profile fields that are not custom attributes; no custom key may take their names.
    package static let profileFields: Set<String> = ["name", "phone", "email"]
    /// Claims a token or an id_token has, or that JWT and OpenID Connect register: never an
    /// attribute's claim, so a profile can never pass for who the token is for or how strong it is.
    package static let reservedClaimNames: Set<String> = [
        "iss", "sub", "aud", "exp", "nbf", "iat", "jti", "sid", "op", "amr", "acr", "txn", "roles", "permissions",
        "auth_time", "exemption", "azp", "nonce", "at_hash", "c_hash", "s_hash", "cnf", "scope", "scp", "client_id",
        "act", "may_act", "typ", "cty", "kid", "alg", "events", "email_verified", "phone_number_verified",
        "consent_id", "operation_id", "authorization_details",
    ]

    /// `[a-z][a-z0-9_]{0,31}`.
    package static func isValidKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard (1...32).contains(bytes.count), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[0]) else { return false }
        return bytes.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "_")
        }
    }

    /// The NFC form of every value, or the first reason the map is refused (naming the key).
    package static func normalized(_ attributes: [String: String]) -> Result<[String: String], DisplayTextViolation> {
        guard attributes.count <= maxKeys else {
            return .failure(.init(field: "attributes", reason: "attributes: at most \(maxKeys) keys"))
        }
        var result: [String: String] = [:]
        var total = 0
        for key in attributes.keys.sorted() {
            guard isValidKey(key) else {
                return .failure(.init(field: "attributes", reason: "attributes: key \"\(key.prefix(40))\" must match [a-z][a-z0-9_]{0,31}"))
            }
            guard !profileFields.contains(key) else {
                return .failure(.init(field: "attributes", reason: "attributes: \(key) is a profile field, not a custom attribute"))
            }
            switch DisplayText.normalized(attributes[key] ?? "", field: "attributes.\(key)", maxLength: maxValueLength) {
            case .success(let value):
                result[key] = value
                total += key.utf8.count + value.utf8.count
            case .failure(let violation): return .failure(violation)
            }
        }
        guard total <= maxTotalBytes else {
            return .failure(.init(field: "attributes", reason: "attributes: at most \(maxTotalBytes) bytes of keys and values in all"))
        }
        return .success(result)
    }
}
