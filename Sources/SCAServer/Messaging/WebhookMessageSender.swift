import Foundation
import SCACore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hands each message to an SMS or mail gateway: an HTTP POST of the message as JSON to a
/// configured URL. Any status outside 2xx is a failed delivery. Push notifications (issue 10)
/// go to `pushURL`, your push gateway, in the same form; without one they are not sent (the
/// phone still finds its operations with `GET /v1/operations/pending`).
public struct WebhookMessageSender: MessageSender {
    public let url: URL
    /// Where `push` messages go.
    public let pushURL: URL?
    private let session: URLSession

    public init(url: URL, pushURL: URL? = nil, timeout: TimeInterval = 10) {
        self.url = url
        self.pushURL = pushURL
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        self.session = URLSession(configuration: configuration)
    }

    public func send(_ message: OutboundMessage) async throws {
        let target: URL
        if message.channel == .push {
            guard let pushURL else { return }
            target = pushURL
        } else {
            target = url
        }
        var request = URLRequest(url: target)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try WireJSON.encoder().encode(message)
        let (_, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) else {
            throw WebhookDeliveryError(status: (response as? HTTPURLResponse)?.statusCode)
        }
    }
}

/// The gateway refused or failed a message.
public struct WebhookDeliveryError: Error, Sendable {
    public var status: Int?
}
