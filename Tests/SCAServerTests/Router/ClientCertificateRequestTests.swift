import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SCAEngine
import SwiftASN1
import Testing

/// What a route sees of the client certificate: `RequestInfo.current?.clientCertificate`, the
/// one place later code (certificate-bound tokens) reads it from.
@Suite("A request's client certificate, as its routes read it")
struct ClientCertificateRequestTests {
    /// A router whose one route answers the thumbprint of the request's certificate, or `none`.
    static func router(_ source: ClientCertificateSource?) -> Router<SCARequestContext> {
        let router = Router(context: SCARequestContext.self)
        router.add(middleware: RequestInfoMiddleware(trustedProxyHeader: HTTPField.Name("X-Forwarded-For"), clientCertificates: source))
        router.get("/who") { _, _ in
            guard let certificate = RequestInfo.current?.clientCertificate else { return "none" }
            return "\(certificate.thumbprint) \(certificate.certificate.subject)"
        }
        return router
    }

    @Test("behind the proxy, a verified forwarded certificate is the request's, with its x5t#S256; without the source, the header is ignored")
    func forwardedCertificate() async throws {
        let authority = try TestCertificateAuthority(name: "test CA")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-cert-request-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = directory.appendingPathComponent("ca.pem")
        try Data(authority.certificatePEM.utf8).write(to: bundle)
        let authorities = try ClientCertificateAuthorities(file: bundle.path)

        let issued = try authority.issueClient("ops-console")
        let expected = try ClientCertificate(derBytes: issued.certificate.serializeAsPEM().derBytes)
        let header = try #require(HTTPField.Name("X-Client-Cert"))
        let forwarded: HTTPFields = [header: try #require(issued.certificatePEM.addingPercentEncoding(withAllowedCharacters: .alphanumerics))]

        let trusted = Application(router: Self.router(.proxyHeader(header, authorities: { authorities }, now: { Date() })))
        try await trusted.test(.router) { client in
            let answer = try await client.execute(uri: "/who", method: .get, headers: forwarded)
            #expect(String(buffer: answer.body) == "\(expected.thumbprint) CN=ops-console")
            let anonymous = try await client.execute(uri: "/who", method: .get)
            #expect(String(buffer: anonymous.body) == "none")
        }
        // At a time the certificate is not valid (the injected clock's), it is not the request's.
        let later = Application(router: Self.router(.proxyHeader(header, authorities: { authorities }, now: { Date() + 30 * 86_400 })))
        try await later.test(.router) { client in
            let answer = try await client.execute(uri: "/who", method: .get, headers: forwarded)
            #expect(String(buffer: answer.body) == "none")
        }
        // No source configured (a server without tls.clientCertificateHeader): the header means nothing.
        let direct = Application(router: Self.router(nil))
        try await direct.test(.router) { client in
            let answer = try await client.execute(uri: "/who", method: .get, headers: forwarded)
            #expect(String(buffer: answer.body) == "none")
        }
    }
}
