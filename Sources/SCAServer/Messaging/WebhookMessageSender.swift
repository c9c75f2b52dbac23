import Foundation
import SCACore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hands each message to an SMS or mail gateway: an HTTP POST of the message as JSON to a
/// configured URL. Any status outside 2xx is a failed delivery.
public struct WebhookMessageSender: MessageSender {
    public let url: URL
    private let session: URLSession

    public init(url: URL, timeout: TimeInterval = 10) {
        self.url = url
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        self.session = URLSession(configuration: configuration)
    }

    public func send(_ message: OutboundMessage) async throws {
        var request = URLRequest(url: url)
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
