import SCACore

/// Self-service sign-up (issue 17): whether a new address becomes a user, and which e-mail
/// domains may. Codes sent for a sign-up draw from the same send budgets as any code
/// (`sendLimitsPerDestination` and the others), keyed by the address.
public struct SignUpSettings: Sendable, Equatable {
    public var mode = SignUpMode.off
    /// Lower-case domains (`bank.example`) whose addresses may sign up; empty: any domain.
    public var emailDomains: [String] = []

    public init() {}

    /// Whether a new user may be created for this (normalized) address.
    func allows(email: String) -> Bool {
        guard mode == .email else { return false }
        guard !emailDomains.isEmpty else { return true }
        guard let at = email.lastIndex(of: "@") else { return false }
        return emailDomains.contains(String(email[email.index(after: at)...]))
    }

    /// - Throws: `ConfigurationError` for a domain that is not a plain lower-case host name.
    func validate() throws {
        for domain in emailDomains {
            let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
            guard domain.count <= 253, labels.count >= 2,
                labels.allSatisfy({ label in
                    !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                        && label.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
                })
            else {
                throw ConfigurationError("signUpEmailDomains: \"\(domain)\" is not a lower-case domain name like bank.example")
            }
        }
    }
}
