import SCACore

/// A user the harness created for manual logins: what its owner types.
struct BenchUser: Sendable {
    var email: String
    var password: String
    /// The seed as an authenticator app holds it.
    var totp: TOTP
}
