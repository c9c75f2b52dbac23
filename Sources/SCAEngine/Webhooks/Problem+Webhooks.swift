import SCACore

// Webhook hardening.
extension Problem {
    /// `400 webhook.address_refused`: the URL's host is a special-purpose address.
    static func webhookAddressRefused(_ kind: SpecialPurposeAddress.Kind) -> Problem {
        Problem(
            status: 400, code: .webhookAddressRefused, title: "Webhook address refused",
            detail: "url must not point at a \(kind.rawValue) address; the server does not call inside its own network")
    }
}
