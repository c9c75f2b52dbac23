import Foundation

/// Which redirect URIs a partner client may register, and how a presented one is matched.
///
/// Allowed: `https://` with a host; `http://` only for `localhost` or `127.0.0.1` (any port,
/// for development); and private-use schemes of native apps, a reverse domain name such as
/// `com.example.app:/cb` (RFC 8252 §7.1). Never a fragment or user information. A presented
/// URI matches only when it is character for character one that was registered: no prefix,
/// no pattern, so a redirect can never be steered elsewhere.
package enum RedirectURIRules {
    /// The longest URI accepted.
    package static let maximumLength = 512

    /// Why `uri` cannot be registered, or nil when it can.
    package static func problem(_ uri: String) -> String? {
        guard !uri.isEmpty, uri.utf8.count <= maximumLength else { return "must be 1 to \(maximumLength) characters" }
        guard uri.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) else {
            return "must be printable ASCII without spaces"
        }
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else {
            return "must be an absolute URI"
        }
        guard components.fragment == nil else { return "must not have a fragment" }
        guard components.user == nil, components.password == nil else { return "must not carry user information" }
        switch scheme {
        case "https":
            guard let host = components.host, !host.isEmpty else { return "https needs a host" }
            return nil
        case "http":
            guard let host = components.host?.lowercased(), host == "localhost" || host == "127.0.0.1" else {
                return "http is allowed for localhost and 127.0.0.1 only; use https"
            }
            return nil
        default:
            // A private-use scheme must be a reverse domain name the app owns (RFC 8252 §7.1):
            // that rules out `javascript:`, `data:`, `file:` and other schemes with no dot.
            let parts = scheme.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }),
                scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }),
                scheme.first?.isLetter == true
            else {
                return "must be https, http on localhost, or a private-use scheme such as com.example.app:/callback"
            }
            return nil
        }
    }

    /// Whether `presented` is exactly one of `registered`.
    package static func matches(_ presented: String, registered: [String]) -> Bool {
        registered.contains(presented)
    }

    /// `scheme://host[:port]` of a web redirect URI (what a Content-Security-Policy
    /// `form-action` names), or nil for a private-use scheme.
    package static func origin(of uri: String) -> String? {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = components.host
        else { return nil }
        return components.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }

    /// `uri` with `parameters` added to its query (percent-encoded), keeping what it had.
    package static func appending(_ parameters: [(String, String)], to uri: String) -> String {
        guard var components = URLComponents(string: uri) else { return uri }
        var items = components.queryItems ?? []
        items.append(contentsOf: parameters.map { URLQueryItem(name: $0.0, value: $0.1) })
        components.percentEncodedQuery = items.map { item in
            "\(formEncoded(item.name))=\(formEncoded(item.value ?? ""))"
        }.joined(separator: "&")
        return components.string ?? uri
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    package static func formEncoded(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
