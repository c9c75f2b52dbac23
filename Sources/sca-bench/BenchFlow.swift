import ArgumentParser

/// The flow every simulated client repeats.
enum BenchFlow: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// A login typed by hand: password (knowledge) and an authenticator code (possession).
    case manual
    /// An app start with a bound device: device key (possession) and biometry key (inherence).
    case coldStart = "cold-start"
    /// 125.00 EUR to ACME SAS approved with the device key and the biometry key.
    case payment

    /// One line for the report.
    var summary: String {
        switch self {
        case .manual: "manual login (password + TOTP)"
        case .coldStart: "cold start (device key + biometry key)"
        case .payment: "payment 125.00 EUR to ACME SAS (device key + biometry key)"
        }
    }

    /// The server's cryptography per flow: what bounds its rate once HTTP and SQLite are cheap.
    var serverCryptography: String {
        switch self {
        case .manual: "1 scrypt verify + HMAC-SHA1 TOTP (3 steps) + 1 ES256 sign"
        case .coldStart: "2 P-256 ECDSA verifies + 1 ES256 sign"
        case .payment: "2 P-256 ECDSA verifies + 1 ES256 sign + JCS/SHA-256 transaction digest"
        }
    }
}
