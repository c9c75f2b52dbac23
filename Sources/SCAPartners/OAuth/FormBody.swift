import Foundation
import SCAEngine

/// `application/x-www-form-urlencoded` bodies, as HTML forms and OAuth clients send them.
package enum FormBody {
    /// The fields of `text`, or nil when it is malformed or names a field twice (RFC 6749 §3.1:
    /// parameters must not repeat).
    package static func parse(_ text: String) -> [String: String]? {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else { return nil }
            guard fields[name] == nil else { return nil }
            fields[name] = value
        }
        return fields
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// Whether `contentType` is `application/x-www-form-urlencoded` (parameters allowed).
    package static func isForm(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "application/x-www-form-urlencoded"
    }
}
