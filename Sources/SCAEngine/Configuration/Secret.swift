import Foundation

/// A setting that is a secret (an admin key, the server key, a database URL with its
/// password): read and written as the text it wraps, never shown. Its description, its debug
/// description and its mirror (`print`, string interpolation, `String(reflecting:)`, `dump`,
/// and so every log line that shows a configuration or a value holding one) say `<redacted>`;
/// a URL shows everything but its password.
@propertyWrapper
package struct Secret: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What of the secret may be shown.
    package enum Shown: Sendable {
        /// Nothing but whether it is set.
        case nothing
        /// A URL without the password of its user part or of a `password` query item.
        case urlWithoutPassword
    }

    package static let redacted = "<redacted>"

    package var wrappedValue: String?
    package let shown: Shown

    package init(wrappedValue: String?) {
        self.init(wrappedValue: wrappedValue, showing: .nothing)
    }

    package init(wrappedValue: String?, showing shown: Shown) {
        self.wrappedValue = wrappedValue
        self.shown = shown
    }

    package var description: String {
        guard let value = wrappedValue else { return "nil" }
        switch shown {
        case .nothing: return Self.redacted
        case .urlWithoutPassword: return Self.withoutPassword(value)
        }
    }

    package var debugDescription: String { description }

    /// No children: a mirror walk finds only the redacted description.
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    /// `url` with the password of its user part and the values of its `…password…` query
    /// items replaced by `<redacted>`; wholly redacted when it is not a URL with a scheme.
    static func withoutPassword(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return redacted }
        let afterScheme = url[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { "/?#".contains($0) } ?? afterScheme.endIndex
        var authority = String(afterScheme[..<authorityEnd])
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at]
            if let colon = user.firstIndex(of: ":") {
                authority = String(user[..<colon]) + ":" + redacted + String(authority[at...])
            }
        }
        var rest = String(afterScheme[authorityEnd...])
        if let question = rest.firstIndex(of: "?") {
            let fragmentStart = rest[question...].firstIndex(of: "#") ?? rest.endIndex
            let items = rest[rest.index(after: question)..<fragmentStart].split(separator: "&", omittingEmptySubsequences: false)
            let shownItems = items.map { item -> String in
                guard let equals = item.firstIndex(of: "="), item[..<equals].lowercased().contains("password") else {
                    return String(item)
                }
                return String(item[...equals]) + redacted
            }
            rest = String(rest[..<question]) + "?" + shownItems.joined(separator: "&") + String(rest[fragmentStart...])
        }
        return String(url[..<schemeEnd.upperBound]) + authority + rest
    }
}
