import Foundation
import JWTKit
import SCACore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a partner proves once is proved once on every instance: a client assertion's `jti`
/// and a pushed `request_uri`, sent to two `sca-server` processes on one PostgreSQL database
/// at the same moment, are accepted by exactly one.
@Suite("Two PostgreSQL instances: client assertions and pushed requests used once", .enabled(if: ServerPair.databaseURL != nil))
struct MultiInstanceFAPITests {
    /// Both instances answer as this issuer, as behind one load balancer.
    static let issuer = "https://sca.bank.example"

    static func form(_ instance: ServerInstance, _ path: String, _ fields: [String: String]) async throws -> HTTPResult {
        var request = URLRequest(url: try #require(URL(string: instance.origin + path)))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(
            fields.map { "\(RedirectURIRules.formEncoded($0.key))=\(RedirectURIRules.formEncoded($0.value))" }.joined(separator: "&").utf8)
        let (data, response) = try await instance.session.data(for: request)
        return HTTPResult(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }

    @Test("the same assertion and the same request_uri, each sent to both instances at once, are accepted once")
    func usedOnceAcrossInstances() async throws {
        try await ServerPair.run(settings: ["SCA_PUBLIC_BASE_URL": Self.issuer]) { a, b in
            let key = ES256PrivateKey()
            let point = try #require(key.publicKey.parameters)
            let jwks = JSONValue.object(["keys": .array([.object([
                "kty": .string("EC"), "crv": .string("P-256"), "kid": .string("k1"), "x": .string(point.x), "y": .string(point.y),
            ])])])
            let registered = try await a.post(
                "/admin/v1/clients",
                CreatePartnerClientRequest(name: "Partner", redirectUris: [KeyClient.redirectURI], profile: .fapi2, jwks: jwks),
                admin: true)
            #expect(registered.status == 201)
            let clientID = try registered.decode(PartnerClientResponse.self).clientId
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: key, kid: "k1")
            let now = Int(Date().timeIntervalSince1970)
            let assertion = try await keys.sign(
                KeyClient.Claims(iss: clientID, sub: clientID, aud: Self.issuer, exp: now + 60, iat: now, jti: UUID().uuidString),
                kid: "k1")
            let (_, challenge) = PartnerFixture.pkce()
            let fields = [
                "response_type": "code", "client_id": clientID, "redirect_uri": KeyClient.redirectURI, "scope": "openid",
                "code_challenge": challenge, "code_challenge_method": "S256",
            ].merging(KeyClient.credentials(assertion)) { $1 }

            async let onA = Self.form(a, "/oauth2/par", fields)
            async let onB = Self.form(b, "/oauth2/par", fields)
            let pushes = try await [onA, onB]
            #expect(pushes.map(\.status).sorted() == [201, 401], "the jti is burned once: \(pushes.map(\.status))")
            let pushed = try #require(pushes.first { $0.status == 201 })
            let requestURI = try #require(
                (try JSONSerialization.jsonObject(with: pushed.body) as? [String: Any])?["request_uri"] as? String)

            let path = "/oauth2/authorize?client_id=\(clientID)&request_uri=\(RedirectURIRules.formEncoded(requestURI))"
            async let pageA = a.send("GET", path)
            async let pageB = b.send("GET", path)
            let pages = try await [pageA, pageB]
            #expect(pages.map(\.status).sorted() == [200, 400], "the request_uri is used once: \(pages.map(\.status))")
        }
    }
}
