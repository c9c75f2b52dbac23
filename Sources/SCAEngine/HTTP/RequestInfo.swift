/// Who is asking, for the duration of one request: its id, the client's address and, with
/// mutual TLS, the client's verified certificate. A task
/// local, so services, the audit trail and log lines can name the request without every
/// method taking it as a parameter.
package struct RequestInfo: Sendable, Equatable {
    /// Hummingbird's request id, also in the request's log metadata.
    package var requestID: String
    /// The client address: from the configured trusted proxy header when set, else the peer.
    package var clientAddress: String?
    /// The certificate the client presented and `tls.clientCAFile` verified: from this server's
    /// TLS handshake, or behind a trusted proxy from `tls.clientCertificateHeader`; nil without one.
    package var clientCertificate: ClientCertificate?

    package init(requestID: String, clientAddress: String?, clientCertificate: ClientCertificate? = nil) {
        self.requestID = requestID
        self.clientAddress = clientAddress
        self.clientCertificate = clientCertificate
    }

    /// The request being served, or nil outside a request (the admin CLI, start-up).
    @TaskLocal package static var current: RequestInfo?
}
