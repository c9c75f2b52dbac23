import SCACore

// Webhook hardening.
extension Problem {
    /// `400 webhook.address_refused`: the host of the URL in `field` is a special-purpose address.
    static func webhookAddressRefused(_ kind: SpecialPurposeAddress.Kind, field: String = "url") -> Problem {
        Problem(
            status: 400, code: .webhookAddressRefused, title: "Webhook address refused",
            detail: "\(field) must not point at a \(kind.rawValue) address; the server does not call inside its own network")
    }
}
