import Foundation
import SCACore

/// Hands each message to an SMS or mail gateway: an HTTP POST of the message as JSON to a
/// configured URL. Any status outside 2xx is a failed delivery, a redirect included (it is
/// never followed). Push notifications go to `pushURL`, your push gateway, in the
/// same form; without one they are not sent (the phone still finds its operations with
/// `GET /v1/operations/pending`). The gateways are the operator's, so their addresses are not
/// restricted; each connection still goes to the address resolved for that request.
package struct WebhookMessageSender: MessageSender {
    package let url: URL
    /// Where `push` messages go.
    package let pushURL: URL?
    private let timeout: Duration
    private let outbound: OutboundHTTP

    package init(url: URL, pushURL: URL? = nil, timeout: TimeInterval = 10, outbound: OutboundHTTP) {
        self.url = url
        self.pushURL = pushURL
        self.timeout = .milliseconds(Int64((timeout * 1000).rounded()))
        self.outbound = outbound
    }

    package func send(_ message: OutboundMessage) async throws {
        let target: URL
        if message.channel == .push {
            guard let pushURL else { return }
            target = pushURL
        } else {
            target = url
        }
        let body = Array(try WireJSON.encoder().encode(message))
        let status: Int
        do {
            status = try await outbound.post(
                target, headers: [("Content-Type", "application/json")], body: body, timeout: timeout,
                for: message.channel == .push ? .pushGateway : .messageGateway)
        } catch {
            throw WebhookDeliveryError(status: nil)
        }
        guard (200..<300).contains(status) else { throw WebhookDeliveryError(status: status) }
    }
}

/// The gateway refused or failed a message.
package struct WebhookDeliveryError: Error, Sendable {
    package var status: Int?
}
