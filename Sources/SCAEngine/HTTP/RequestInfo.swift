/// Who is asking, for the duration of one request: its id and the client's address. A task
/// local, so services, the audit trail and log lines can name the request without every
/// method taking it as a parameter.
package struct RequestInfo: Sendable, Equatable {
    /// Hummingbird's request id, also in the request's log metadata.
    package var requestID: String
    /// The client address: from the configured trusted proxy header when set, else the peer.
    package var clientAddress: String?

    package init(requestID: String, clientAddress: String?) {
        self.requestID = requestID
        self.clientAddress = clientAddress
    }

    /// The request being served, or nil outside a request (the admin CLI, start-up).
    @TaskLocal package static var current: RequestInfo?
}
