import ArgumentParser

/// The flow every simulated client repeats.
enum BenchFlow: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// A login typed by hand: password (knowledge) and an authenticator code (possession).
    case manual
    /// An app start with a bound device: device key (possession) and biometry key (inherence).
    case coldStart = "cold-start"
    /// 125.00 EUR to ACME SAS approved with the device key and the biometry key.
    case payment
    /// Raw mode only: `POST /v1/challenges` for a bound device, and nothing more.
    case challenge
    /// Raw mode only: `GET /health/live`, the trivial request every other figure is set against.
    case health

    /// One line for the report.
    var summary: String {
        switch self {
        case .manual: "manual login (password + TOTP)"
        case .coldStart: "cold start (device key + biometry key)"
        case .payment: "payment 125.00 EUR to ACME SAS (device key + biometry key)"
        case .challenge: "challenge creation alone (login, bound device)"
        case .health: "trivial request (GET /health/live)"
        }
    }

    /// The server's cryptography per flow: what bounds its rate once HTTP and SQLite are cheap.
    var serverCryptography: String {
        switch self {
        case .manual: "1 scrypt verify + HMAC-SHA1 TOTP (3 steps) + 1 ES256 sign"
        case .coldStart: "2 P-256 ECDSA verifies + 1 ES256 sign"
        case .payment: "2 P-256 ECDSA verifies + 1 ES256 sign + JCS/SHA-256 transaction digest"
        case .challenge: "none (a random nonce)"
        case .health: "none"
        }
    }

    /// HTTP requests one flow makes when every proof is accepted (raw mode); the floor's
    /// trivial-request rate divided by this is the flow rate the HTTP round trips alone allow.
    var requestsPerFlow: Int {
        switch self {
        case .manual, .coldStart, .payment: 3
        case .challenge, .health: 1
        }
    }

    /// Whether the SDK mode can run it (the SDK has no call for a bare challenge or the health probe).
    var runsInSDKMode: Bool {
        switch self {
        case .manual, .coldStart, .payment: true
        case .challenge, .health: false
        }
    }
}
