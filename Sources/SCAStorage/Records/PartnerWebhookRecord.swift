import Foundation

/// A partner client's webhook: where the final status of its operations is posted,
/// and the signing secret, sealed with the server's secret box (the server signs with it, so it
/// cannot be kept as a hash).
public struct PartnerWebhookRecord: Sendable, Equatable {
    public var clientID: String
    public var url: String
    public var sealedSecret: [UInt8]
    public var createdAt: Date

    public init(clientID: String, url: String, sealedSecret: [UInt8], createdAt: Date) {
        self.clientID = clientID
        self.url = url
        self.sealedSecret = sealedSecret
        self.createdAt = createdAt
    }
}
