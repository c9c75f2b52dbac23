import Foundation

/// The user and password of an `Authorization: Basic` header: a partner client's id and
/// secret, each form-encoded before the pair is base64-encoded (RFC 6749 §2.3.1). The scheme
/// name is matched in any case.
package struct BasicCredentials: Sendable, Equatable {
    package let user: String
    package let password: String

    /// What an `Authorization` header holds for the Basic scheme.
    package enum Presented: Sendable, Equatable {
        /// No header, or another scheme.
        case none
        /// The Basic scheme with something that is not `base64(user:password)`.
        case malformed
        case credentials(BasicCredentials)
    }

    package static func presented(in authorization: String?) -> Presented {
        guard let authorization else { return .none }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard let scheme = parts.first, scheme.lowercased() == "basic" else { return .none }
        guard parts.count == 2,
            let decoded = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces))
                .flatMap({ String(data: $0, encoding: .utf8) }),
            let colon = decoded.firstIndex(of: ":"),
            let user = String(decoded[..<colon]).removingPercentEncoding,
            let password = String(decoded[decoded.index(after: colon)...]).removingPercentEncoding
        else { return .malformed }
        return .credentials(BasicCredentials(user: user, password: password))
    }
}
