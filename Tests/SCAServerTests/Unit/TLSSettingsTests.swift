import Foundation
import SCACore
import SCAEngine
import Testing

@Suite("TLS settings: the certificate pair, mutual TLS and the proxy's certificate header")
struct TLSSettingsTests {
    @Test("read from the file's tls object and from SCA_TLS_* variables; off by default")
    func sources() throws {
        let loader = ConfigurationLoader()
        let defaults = try loader.load(file: nil, environment: [:], flags: [:])
        #expect(!defaults.tls.servesHTTPS)
        #expect(defaults.baseURL == "http://127.0.0.1:8080")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sca-tls-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"tls": {"certificateFile": "/etc/sca/server.pem", "privateKeyFile": "/etc/sca/server-key.pem"}}"#.utf8).write(to: file)
        let configuration = try loader.load(
            file: file.path,
            environment: ["SCA_TLS_CLIENT_CA_FILE": "/etc/sca/clients.pem", "SCA_TLS_ADMIN_REQUIRES_CLIENT_CERTIFICATE": "true"],
            flags: [:])
        #expect(configuration.tls.certificateFile == "/etc/sca/server.pem")
        #expect(configuration.tls.privateKeyFile == "/etc/sca/server-key.pem")
        #expect(configuration.tls.clientCAFile == "/etc/sca/clients.pem")
        // An acronym followed by a word splits before the word.
        #expect(ConfigurationLoader.environmentName(of: "tls.clientCAFile") == "SCA_TLS_CLIENT_CA_FILE")
        #expect(ConfigurationLoader.environmentName(of: "publicBaseURL") == "SCA_PUBLIC_BASE_URL")
        #expect(configuration.tls.adminRequiresClientCertificate)
        // Pages, consent URLs and DPoP's `htu` name the scheme the server answers.
        #expect(configuration.baseURL == "https://127.0.0.1:8080")
    }

    @Test("settings that need each other are refused at start-up, naming what is missing")
    func refusals() throws {
        let loader = ConfigurationLoader()
        for (environment, words) in [
            (["SCA_TLS_CERTIFICATE_FILE": "/c.pem"], "must be set together"),
            (["SCA_TLS_PRIVATE_KEY_FILE": "/k.pem"], "must be set together"),
            (["SCA_TLS_CLIENT_CA_FILE": "/ca.pem"], "tls.clientCAFile needs"),
            (["SCA_TLS_ADMIN_REQUIRES_CLIENT_CERTIFICATE": "true"], "needs tls.clientCAFile"),
            // The header is believed only behind the proxy, as the client address is.
            (["SCA_TLS_CLIENT_CA_FILE": "/ca.pem", "SCA_TLS_CLIENT_CERTIFICATE_HEADER": "X-Client-Cert"], "needs trustedProxyHeader"),
            (["SCA_TRUSTED_PROXY_HEADER": "X-Forwarded-For", "SCA_TLS_CLIENT_CERTIFICATE_HEADER": "X-Client-Cert"], "needs tls.clientCAFile"),
            (
                ["SCA_TRUSTED_PROXY_HEADER": "X-Forwarded-For", "SCA_TLS_CLIENT_CA_FILE": "/ca.pem", "SCA_TLS_CLIENT_CERTIFICATE_HEADER": "X Cert"],
                "not a header name"
            ),
        ] {
            let error = #expect(throws: ConfigurationError.self, "\(environment)") {
                try loader.load(file: nil, environment: environment, flags: [:])
            }
            #expect(error?.description.contains(words) == true, "\(error?.description ?? "")")
        }
        let proxied = try loader.load(
            file: nil,
            environment: [
                "SCA_TRUSTED_PROXY_HEADER": "X-Forwarded-For", "SCA_TLS_CLIENT_CA_FILE": "/ca.pem",
                "SCA_TLS_CLIENT_CERTIFICATE_HEADER": "X-Client-Cert",
            ],
            flags: [:])
        #expect(proxied.tls.clientCertificateHeader == "X-Client-Cert")
        #expect(!proxied.tls.servesHTTPS)
    }
}
