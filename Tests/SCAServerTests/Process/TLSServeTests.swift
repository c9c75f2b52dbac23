#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// `sca-server serve` answering HTTPS itself, seen by a TLS client that is not ours (Python's
/// `ssl`, on OpenSSL), with certificates the test makes and writes to a temporary directory.
@Suite(
    "HTTPS and mutual TLS in sca-server itself",
    .enabled(if: (try? ServerPair.serverBinary()) != nil, "sca-server binary not built"),
    .timeLimit(.minutes(5)))
struct TLSServeTests {
    /// A temporary directory with the test's certificates in it, removed at the end.
    final class Workspace {
        let directory: URL
        let authority: TestCertificateAuthority
        let server: TestCertificateAuthority.Issued

        init(_ name: String) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-tls-\(name)-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            authority = try TestCertificateAuthority(name: "swift-sca test CA")
            server = try authority.issueServer()
            try write(authority.certificatePEM, to: "ca.pem")
            try install(server)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        /// Writes `text` to the file `name` by a rename, as a deployment replaces a certificate.
        func write(_ text: String, to name: String) throws {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name), options: .atomic)
        }

        /// `issued` as the server's certificate and key files.
        func install(_ issued: TestCertificateAuthority.Issued) throws {
            try write(issued.keyPEM, to: "server-key.pem")
            try write(issued.certificatePEM, to: "server.pem")
        }

        /// `issued` as a client's files, under `name`.
        func writeClient(_ issued: TestCertificateAuthority.Issued, as name: String) throws {
            try write(issued.certificatePEM, to: "\(name).pem")
            try write(issued.keyPEM, to: "\(name)-key.pem")
        }

        var serverEnvironment: [String: String] {
            ["SCA_TLS_CERTIFICATE_FILE": path("server.pem"), "SCA_TLS_PRIVATE_KEY_FILE": path("server-key.pem")]
        }

        /// A probe of `path` on `port` that trusts the test CA.
        func probe(_ port: Int, _ path: String = "/health/live") -> TLSProbe.Request {
            TLSProbe.Request(port: port, path: path, ca: self.path("ca.pem"))
        }

        /// The same, presenting the client certificate written under `name`.
        func probe(_ port: Int, _ path: String, as name: String) -> TLSProbe.Request {
            var request = probe(port, path)
            request.cert = self.path("\(name).pem")
            request.key = self.path("\(name)-key.pem")
            return request
        }
    }

    static let adminKey = "tls-test-admin-key-0123456789"
    static let adminPath = "/admin/v1/audit?after=0&limit=1"

    @Test("TLS 1.2 and 1.3 clients get /health/live over HTTPS, HTTP/1.1 by ALPN; TLS 1.1 and a CBC suite are refused")
    func versions() async throws {
        let workspace = try Workspace("versions")
        let server = try ServeProcess(directory: workspace.directory.appendingPathComponent("run"), environment: workspace.serverEnvironment)
        let port = try await server.port()
        #expect((try String(contentsOf: workspace.directory.appendingPathComponent("run/stdout.log"), encoding: .utf8))
            .contains("sca-server listening on https://127.0.0.1:\(port)"))

        for version in ["1.2", "1.3"] {
            var request = workspace.probe(port)
            request.version = version
            let outcome = try await TLSProbe.run(request)
            #expect(outcome.status == 200, "TLS \(version): \(outcome.error ?? "")")
            #expect(outcome.version == "TLSv\(version)")
            #expect(outcome.alpn == "http/1.1")
            #expect(outcome.serial == workspace.server.serialNumber)
        }
        var old = workspace.probe(port)
        old.version = "1.1"
        let refused = try await TLSProbe.run(old)
        #expect(refused.status == nil)
        // The server's alert, not the client's own refusal to offer TLS 1.1.
        #expect(refused.error?.contains("PROTOCOL_VERSION") == true, "\(refused.error ?? "")")

        var cbc = workspace.probe(port)
        cbc.version = "1.2"
        cbc.ciphers = "ECDHE-ECDSA-AES128-SHA:ECDHE-ECDSA-AES256-SHA"
        let weak = try await TLSProbe.run(cbc)
        #expect(weak.status == nil, "a CBC suite was accepted")

        // Plain HTTP on the HTTPS port gets no answer.
        var plain = workspace.probe(port)
        plain.tls = false
        #expect(try await TLSProbe.run(plain).status == nil)
        await server.stop()
    }

    @Test("with mutual TLS the admin API refuses no certificate, an expired one and an untrusted CA's, and takes a good one")
    func mutualTLS() async throws {
        let workspace = try Workspace("mtls")
        let stranger = try TestCertificateAuthority(name: "another CA")
        try workspace.writeClient(try workspace.authority.issueClient("ops"), as: "good")
        try workspace.writeClient(try workspace.authority.issueClient("ops", expired: true), as: "expired")
        try workspace.writeClient(try stranger.issueClient("ops"), as: "untrusted")
        let environment = workspace.serverEnvironment.merging([
            "SCA_TLS_CLIENT_CA_FILE": workspace.path("ca.pem"), "SCA_TLS_ADMIN_REQUIRES_CLIENT_CERTIFICATE": "true",
            "SCA_ADMIN_KEY": Self.adminKey,
        ]) { _, new in new }
        let server = try ServeProcess(directory: workspace.directory.appendingPathComponent("run"), environment: environment)
        let port = try await server.port()
        let bearer = ["Authorization": "Bearer \(Self.adminKey)"]

        // A client certificate is optional for everything else.
        #expect(try await TLSProbe.run(workspace.probe(port)).status == 200)

        var anonymous = workspace.probe(port, Self.adminPath)
        anonymous.headers = bearer
        let refused = try await TLSProbe.run(anonymous)
        #expect(refused.status == 403)
        #expect(refused.problemCode == "auth.client_certificate_required", "\(refused.body ?? "")")

        // A certificate that does not verify ends the handshake: no request is served on it.
        for name in ["expired", "untrusted"] {
            var request = workspace.probe(port, Self.adminPath, as: name)
            request.headers = bearer
            let outcome = try await TLSProbe.run(request)
            #expect(outcome.status == nil, "\(name): answered \(outcome.status ?? 0)")
        }

        var good = workspace.probe(port, Self.adminPath, as: "good")
        good.headers = bearer
        let accepted = try await TLSProbe.run(good)
        #expect(accepted.status == 200, "\(accepted.body ?? accepted.error ?? "")")
        // The certificate opens nothing by itself: the credential is still needed.
        var keyless = workspace.probe(port, Self.adminPath, as: "good")
        keyless.headers = [:]
        #expect(try await TLSProbe.run(keyless).status == 401)

        // Over HTTPS with its own handshake, the server believes no certificate header.
        var forged = workspace.probe(port, Self.adminPath)
        let pem = try workspace.authority.issueClient("ops").certificatePEM
        forged.headers = bearer.merging(["X-Client-Cert": pem.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""]) { _, new in new }
        #expect(try await TLSProbe.run(forged).status == 403)
        await server.stop()
    }

    @Test("a certificate replaced on disk is served to new connections without a restart; a broken one keeps the old")
    func reload() async throws {
        let workspace = try Workspace("reload")
        let server = try ServeProcess(directory: workspace.directory.appendingPathComponent("run"), environment: workspace.serverEnvironment)
        let port = try await server.port()
        #expect(try await TLSProbe.run(workspace.probe(port)).serial == workspace.server.serialNumber)

        // A broken certificate: logged, and the old one is still served.
        try workspace.write("not a certificate\n", to: "server.pem")
        try await Self.waitUntil("the refusal is logged", server) { server.log.contains("the new server certificate cannot be used") }
        let kept = try await TLSProbe.run(workspace.probe(port))
        #expect(kept.status == 200)
        #expect(kept.serial == workspace.server.serialNumber)

        // A new pair: served within the poll interval. The bound only catches a hang.
        let renewed = try workspace.authority.issueServer()
        try workspace.install(renewed)
        try await Self.waitUntil("the new certificate is served", server) {
            (try? await TLSProbe.run(workspace.probe(port)).serial) == renewed.serialNumber
        }
        #expect(server.log.contains("server certificate reloaded"))
        // The broken file was logged once; the moment between the key and the certificate, not.
        #expect(server.log.components(separatedBy: "the new server certificate cannot be used").count == 2, "\(server.log.suffix(2_000))")

        // SIGHUP reads the files again instead of ending the process.
        server.signal(SIGHUP)
        try await Self.waitUntil("SIGHUP is logged", server) { server.log.contains("SIGHUP: reading the server certificate again") }
        #expect(try await TLSProbe.run(workspace.probe(port)).serial == renewed.serialNumber)
        await server.stop()
    }

    @Test("a client CA file replaced on disk is trusted for new handshakes without a restart; a broken one keeps the old")
    func clientAuthoritiesReload() async throws {
        let workspace = try Workspace("client-ca")
        let next = try TestCertificateAuthority(name: "the next client CA")
        try workspace.writeClient(try workspace.authority.issueClient("ops"), as: "current")
        try workspace.writeClient(try next.issueClient("ops"), as: "next")
        try workspace.write(workspace.authority.certificatePEM, to: "clients.pem")
        let environment = workspace.serverEnvironment.merging([
            "SCA_TLS_CLIENT_CA_FILE": workspace.path("clients.pem"), "SCA_TLS_ADMIN_REQUIRES_CLIENT_CERTIFICATE": "true",
            "SCA_ADMIN_KEY": Self.adminKey,
        ]) { _, new in new }
        let server = try ServeProcess(directory: workspace.directory.appendingPathComponent("run"), environment: environment)
        let port = try await server.port()
        func admin(as name: String) async throws -> TLSProbe.Outcome {
            var request = workspace.probe(port, Self.adminPath, as: name)
            request.headers = ["Authorization": "Bearer \(Self.adminKey)"]
            return try await TLSProbe.run(request)
        }
        #expect(try await admin(as: "current").status == 200)
        #expect(try await admin(as: "next").status == nil, "the next CA is not trusted yet")

        // A broken file: logged once, and the authorities before stay.
        try workspace.write("not a certificate\n", to: "clients.pem")
        try await Self.waitUntil("the refusal is logged", server) {
            server.log.contains("the new client certificate authorities cannot be used")
        }
        #expect(try await admin(as: "current").status == 200)

        // The new bundle (both CAs, as during a change-over), then the next CA alone.
        try workspace.write(workspace.authority.certificatePEM + next.certificatePEM, to: "clients.pem")
        try await Self.waitUntil("the next CA is trusted", server) { (try? await admin(as: "next").status) == 200 }
        #expect(try await admin(as: "current").status == 200)
        try workspace.write(next.certificatePEM, to: "clients.pem")
        try await Self.waitUntil("the old CA is no longer trusted", server) { (try? await admin(as: "current").status) == nil }
        #expect(try await admin(as: "next").status == 200)
        #expect(server.log.contains("client certificate authorities reloaded"))
        await server.stop()
    }

    @Test("a missing file or a key of another certificate fails the start-up with the reason")
    func badFiles() async throws {
        let workspace = try Workspace("bad")
        let missing = try ServeProcess(
            directory: workspace.directory.appendingPathComponent("missing"),
            environment: workspace.serverEnvironment.merging(["SCA_TLS_CERTIFICATE_FILE": workspace.path("nowhere.pem")]) { _, new in new })
        #expect(await missing.waitForExit() == 1)
        #expect(missing.log.contains("tls.certificateFile \(workspace.path("nowhere.pem")) cannot be read"), "\(missing.log)")

        let other = try workspace.authority.issueServer()
        try workspace.write(other.keyPEM, to: "other-key.pem")
        let mismatched = try ServeProcess(
            directory: workspace.directory.appendingPathComponent("mismatched"),
            environment: workspace.serverEnvironment.merging(["SCA_TLS_PRIVATE_KEY_FILE": workspace.path("other-key.pem")]) { _, new in new })
        #expect(await mismatched.waitForExit() == 1)
        #expect(mismatched.log.contains("tls.privateKeyFile is not the key of the first certificate"), "\(mismatched.log)")

        // The certificate header without the proxy's trust is refused, not ignored.
        let untrusted = try ServeProcess(
            directory: workspace.directory.appendingPathComponent("header"),
            environment: ["SCA_TLS_CLIENT_CA_FILE": workspace.path("ca.pem"), "SCA_TLS_CLIENT_CERTIFICATE_HEADER": "X-Client-Cert"])
        #expect(await untrusted.waitForExit() != 0)
        #expect(untrusted.log.contains("tls.clientCertificateHeader needs trustedProxyHeader"), "\(untrusted.log)")
    }

    @Test("behind a trusted proxy the certificate header is believed when it verifies, and refused when expired, untrusted or absent")
    func proxyHeader() async throws {
        let workspace = try Workspace("proxy")
        let stranger = try TestCertificateAuthority(name: "another CA")
        let server = try ServeProcess(
            directory: workspace.directory.appendingPathComponent("run"),
            environment: [
                "SCA_TRUSTED_PROXY_HEADER": "X-Forwarded-For", "SCA_TLS_CLIENT_CA_FILE": workspace.path("ca.pem"),
                "SCA_TLS_CLIENT_CERTIFICATE_HEADER": "X-Client-Cert", "SCA_TLS_ADMIN_REQUIRES_CLIENT_CERTIFICATE": "true",
                "SCA_ADMIN_KEY": Self.adminKey,
            ])
        let port = try await server.port()

        func request(forwarding certificate: TestCertificateAuthority.Issued?) async throws -> TLSProbe.Outcome {
            var headers = ["Authorization": "Bearer \(Self.adminKey)", "X-Forwarded-For": "203.0.113.7"]
            // As nginx's $ssl_client_escaped_cert writes it.
            if let certificate { headers["X-Client-Cert"] = certificate.certificatePEM.addingPercentEncoding(withAllowedCharacters: .alphanumerics) }
            return try await TLSProbe.run(TLSProbe.Request(port: port, path: Self.adminPath, tls: false, headers: headers))
        }
        #expect(try await request(forwarding: workspace.authority.issueClient("ops")).status == 200)
        for (name, certificate) in [
            ("expired", try workspace.authority.issueClient("ops", expired: true)), ("untrusted", try stranger.issueClient("ops")),
        ] {
            let outcome = try await request(forwarding: certificate)
            #expect(outcome.status == 403, "\(name)")
            #expect(outcome.problemCode == "auth.client_certificate_required", "\(name)")
        }
        #expect(try await request(forwarding: nil).status == 403)
        await server.stop()
    }

    /// Polls `condition` until it holds; the generous bound only turns a hang into a failure.
    static func waitUntil(
        _ what: String, _ server: ServeProcess, _ condition: () async throws -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("timed out waiting until \(what); log:\n\(server.log.suffix(2_000))")
        throw CancellationError()
    }
}
