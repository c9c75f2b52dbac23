/// Why a key, an assertion or a proof is refused: the rule it breaks, in words for the
/// developer of the client that sent it. It names no secret.
package struct BrokenRule: Error, Sendable, Equatable {
    package var reason: String

    package init(_ reason: String) {
        self.reason = reason
    }
}
