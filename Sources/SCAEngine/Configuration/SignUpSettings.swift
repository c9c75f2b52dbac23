import SCACore

/// Self-service sign-up: whether a new address becomes a user, and which e-mail
/// domains may. Codes sent for a sign-up draw from the same send budgets as any code
/// (`sendLimitsPerDestination` and the others), keyed by the address.
package struct SignUpSettings: Sendable, Equatable {
    package var mode = SignUpMode.off
    /// Lower-case domains (`bank.example`) whose addresses may sign up; empty: any domain.
    package var emailDomains: [String] = []

    package init() {}

    /// Whether a new user may be created for this (normalized) address.
    func allows(email: String) -> Bool {
        guard mode.allowsEmail, let at = email.lastIndex(of: "@") else { return false }
        let domain = String(email[email.index(after: at)...])
        // The reserved domain of phone-only users' placeholder addresses is nobody's mailbox.
        guard domain != Self.phonePlaceholderDomain else { return false }
        return emailDomains.isEmpty || emailDomains.contains(domain)
    }

    /// Whether a new user may be created for this (normalized, E.164) phone number.
    func allows(phone: String) -> Bool { mode.allowsPhone }

    /// The domain of the e-mail a user who signed up with a phone number is stored with: the
    /// `users` table needs a unique e-mail, and `.invalid` is reserved, so nothing is ever
    /// delivered there (such a user's e-mail codes stay off; an operator may set a real address).
    package static let phonePlaceholderDomain = "phone.invalid"

    /// The placeholder e-mail of a user who signed up with `phone` (`+33612345678` →
    /// `33612345678@phone.invalid`): unique as the number is.
    package static func placeholderEmail(forPhone phone: String) -> String {
        "\(phone.dropFirst())@\(phonePlaceholderDomain)"
    }

    /// Whether `email` is such a placeholder, to which nothing is ever sent.
    package static func isPlaceholder(email: String) -> Bool {
        email.hasSuffix("@" + phonePlaceholderDomain)
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
