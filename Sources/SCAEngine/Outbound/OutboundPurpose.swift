/// Why the server calls out, as an outbound call's span names it: the kind of call and the
/// partner client it is for. Never the URL: a gateway's or partner's path may carry a key.
package struct OutboundPurpose: Sendable, Equatable {
    /// `message_gateway`, `push_gateway`, `partner.event`, `partner.backchannel_logout`,
    /// `partner.ciba_ping`, `partner.jwks`, `audit_stream`.
    package let name: String
    /// The partner client the call is for; nil for the bank's own gateways.
    package let clientID: String?

    package init(name: String, clientID: String? = nil) {
        self.name = name
        self.clientID = clientID
    }

    /// A code or alert handed to the SMS and e-mail gateway (`webhookURL`).
    package static let messageGateway = OutboundPurpose(name: "message_gateway")
    /// An operation's push handed to the push gateway (`pushGatewayURL`).
    package static let pushGateway = OutboundPurpose(name: "push_gateway")
    /// Audit entries handed to the bank's SIEM (`auditStream.url`).
    package static let auditStream = OutboundPurpose(name: "audit_stream")

    /// A delivery from the partner outbox (`event`, `backchannel_logout`, `ciba_ping`).
    package static func partnerDelivery(_ kind: String, clientID: String) -> OutboundPurpose {
        OutboundPurpose(name: "partner.\(kind)", clientID: clientID)
    }

    /// A partner's published keys (`jwksUri`), fetched to check its signed assertions.
    package static func partnerKeys(clientID: String) -> OutboundPurpose {
        OutboundPurpose(name: "partner.jwks", clientID: clientID)
    }
}
