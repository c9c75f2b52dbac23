import HummingbirdTLS
import NIOSSL
import SCAEngine

extension TLSConfiguration {
    /// The TLS 1.2 cipher suites offered: ECDHE key exchange (forward secrecy) with AEAD
    /// ciphers only, so no CBC, RC4, 3DES, static RSA or finite-field DHE suite. TLS 1.3 needs no
    /// list: BoringSSL offers its three AEAD suites (AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305).
    /// docs/tls.md states the same list; change both together.
    static let serverCipherSuites = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")

    /// The server's TLS: 1.2 and 1.3 only, the suites above, HTTP/1.1 by ALPN, the certificate
    /// `certificates` holds at each handshake, and, with `clientAuthorities`, a client
    /// certificate asked for (the file's authorities named as acceptable) and verified when
    /// presented (``SCAServices/tlsChannel(certificates:clientAuthorities:)`` verifies it
    /// against the authorities as last read; one that does not verify ends the handshake; a
    /// client without one is served, and the routes decide).
    static func server(certificates: ServerCertificateReloader, clientAuthorities: ClientCertificateAuthorities?) -> TLSConfiguration {
        let current = certificates.current
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: current.chain.map { .certificate($0) }, privateKey: .privateKey(current.privateKey))
        configuration.minimumTLSVersion = .tlsv12
        configuration.maximumTLSVersion = .tlsv13
        configuration.cipherSuites = serverCipherSuites
        // HTTP/2 is not offered: the connection limits and slow-client bounds are written for
        // HTTP/1.1 connections (ConnectionLimitHandler, RequestReadTimeoutHandler).
        configuration.applicationProtocols = ["http/1.1"]
        configuration.sslContextCallback = certificates.handshakeCallback
        if let clientAuthorities {
            configuration.trustRoots = .certificates(clientAuthorities.trustRoots)
            configuration.certificateVerification = .optionalVerification
        }
        return configuration
    }
}

extension SCAServices {
    /// The TLS of the HTTP server: ``TLSConfiguration/server(certificates:clientAuthorities:)``,
    /// with the client's certificate verified by `clientAuthorities` at each handshake, so that
    /// a replaced `tls.clientCAFile` counts for the next handshake.
    static func tlsChannel(
        certificates: ServerCertificateReloader, clientAuthorities: ClientAuthoritiesReloader?
    ) -> TLSChannelConfiguration {
        let configuration = TLSConfiguration.server(certificates: certificates, clientAuthorities: clientAuthorities?.current)
        guard let clientAuthorities else { return TLSChannelConfiguration(tlsConfiguration: configuration) }
        return TLSChannelConfiguration(
            tlsConfiguration: configuration, customAsyncVerificationCallback: clientAuthorities.verifyHandshake)
    }
}
