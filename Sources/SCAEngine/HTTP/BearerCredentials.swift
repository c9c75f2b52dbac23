import Foundation

/// The token of an `Authorization: Bearer <token>` header (or of another token scheme, such as
/// `DPoP`). The scheme name is matched in any case (`bearer`, `BEARER`: RFC 9110 §11.1), the
/// token as sent.
enum BearerCredentials {
    /// The token, or nil when the header is absent, of another scheme, or has no token.
    /// - Parameter scheme: the scheme's name in lower case.
    static func token(in authorization: String?, scheme: String = "bearer") -> String? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == scheme else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
