import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SCACore
import SCAServer
import SCAStorage
import Testing

/// Scoped admin keys through the real routes: each route needs its one scope, a revoked key
/// stops at once, uses are recorded by name, and no key ever reaches a log line.
@Suite("Admin API: scoped keys")
struct AdminAccessTests {
    /// Every admin route with the scope it declares. A route added to openapi.yaml without a
    /// line here fails ``everyDocumentedRouteIsListed()``.
    struct Route: Sendable, CustomStringConvertible {
        var method: HTTPRequest.Method
        var path: String
        var scope: AdminScope
        /// What the route answers once past its scope: 2xx, or for a route whose resource the
        /// table cannot make (a passkey needs an authenticator), its `404`.
        var accepted: ClosedRange<Int> = 200...299
        /// A body the route accepts.
        var body: (@Sendable (_ index: Int) -> Data?)

        /// The path with `{user}` and `{device}` filled in.
        func uri(user: String, device: String) -> String {
            path.replacingOccurrences(of: "{id}", with: path.hasPrefix("/admin/v1/devices") ? device : user)
        }

        var description: String { "\(method) \(path)" }
    }

    static func json(_ value: some Encodable) -> Data? { try? WireJSON.encoder().encode(value) }

    static let routes: [Route] = [
        Route(method: .post, path: "/admin/v1/users", scope: .usersWrite) { json(CreateUserRequest(email: "new\($0)@example.com")) },
        Route(method: .get, path: "/admin/v1/users", scope: .usersRead) { _ in nil },
        Route(method: .get, path: "/admin/v1/users/{id}", scope: .usersRead) { _ in nil },
        Route(method: .get, path: "/admin/v1/users/{id}/export", scope: .usersRead) { _ in nil },
        Route(method: .get, path: "/admin/v1/users/{id}/events", scope: .usersRead) { _ in nil },
        Route(method: .delete, path: "/admin/v1/users/{id}/sessions", scope: .usersWrite) { _ in nil },
        Route(method: .delete, path: "/admin/v1/users/{id}/sessions/{sessionId}", scope: .usersWrite, accepted: 404...404) { _ in nil },
        Route(method: .patch, path: "/admin/v1/users/{id}", scope: .usersWrite) { _ in json(UpdateUserRequest(emailCodes: false)) },
        Route(method: .put, path: "/admin/v1/users/{id}/roles", scope: .usersRoles) { _ in json(SetRolesRequest(roles: ["customer"])) },
        Route(method: .post, path: "/admin/v1/users/{id}/totp", scope: .usersWrite) { _ in nil },
        // After the enrolment above, so there is an app to remove.
        Route(method: .delete, path: "/admin/v1/users/{id}/totp", scope: .usersWrite) { _ in nil },
        Route(method: .delete, path: "/admin/v1/users/{id}/partners/{clientId}", scope: .usersWrite, accepted: 404...404) { _ in nil },
        Route(method: .post, path: "/admin/v1/users/{id}/unblock", scope: .usersUnblock) { _ in nil },
        Route(method: .delete, path: "/admin/v1/users/{id}/restriction", scope: .usersUnblock, accepted: 404...404) { _ in nil },
        Route(method: .post, path: "/admin/v1/users/{id}/activations", scope: .devicesWrite) { _ in nil },
        Route(method: .post, path: "/admin/v1/devices/{id}/block", scope: .devicesWrite) { _ in nil },
        Route(method: .post, path: "/admin/v1/devices/{id}/unblock", scope: .devicesWrite) { _ in nil },
        Route(method: .delete, path: "/admin/v1/devices/{id}", scope: .devicesWrite) { _ in nil },
        Route(method: .get, path: "/admin/v1/audit", scope: .auditRead) { _ in nil },
        Route(method: .get, path: "/admin/v1/audit/export", scope: .auditRead) { _ in nil },
        Route(method: .get, path: "/admin/v1/audit/verify", scope: .auditRead) { _ in nil },
        Route(method: .post, path: "/admin/v1/fraud-reports", scope: .riskWrite) { _ in
            json(FraudReportRequest(amount: "10.00", currency: "EUR", type: .creditTransfer))
        },
        Route(method: .get, path: "/admin/v1/risk/report", scope: .riskRead) { _ in nil },
        Route(method: .get, path: "/admin/v1/risk/report.csv", scope: .riskRead) { _ in nil },
        Route(method: .get, path: "/admin/v1/risk/activity", scope: .riskRead) { _ in nil },
        Route(method: .get, path: "/admin/v1/activity", scope: .riskRead) { _ in nil },
        Route(method: .get, path: "/admin/v1/users/{id}/passkeys", scope: .devicesRead) { _ in nil },
        Route(method: .delete, path: "/admin/v1/passkeys/{id}", scope: .devicesWrite, accepted: 404...404) { _ in nil },
        // Sign-up or in.
        Route(method: .put, path: "/admin/v1/users/{id}/profile", scope: .usersWrite) { _ in json(ProfileRequest(name: "Ada")) },
        // Partner clients; the table has no client to remove, so that route's answer is its 404.
        Route(method: .post, path: "/admin/v1/clients", scope: .clientsWrite) {
            json(CreatePartnerClientRequest(name: "Shop \($0)", redirectUris: ["https://shop.example/callback"]))
        },
        Route(method: .get, path: "/admin/v1/clients", scope: .clientsRead) { _ in nil },
        Route(method: .delete, path: "/admin/v1/clients/{id}", scope: .clientsWrite, accepted: 404...404) { _ in nil },
        // Partner webhooks; no client in the table either, so 404 once the scope passes.
        Route(method: .put, path: "/admin/v1/clients/{id}/webhook", scope: .clientsWrite, accepted: 404...404) { _ in
            json(SetPartnerWebhookRequest(url: "https://shop.example/hooks"))
        },
        Route(method: .delete, path: "/admin/v1/clients/{id}/webhook", scope: .clientsWrite, accepted: 404...404) { _ in nil },
        Route(method: .get, path: "/admin/v1/clients/{id}/activity", scope: .clientsRead, accepted: 404...404) { _ in nil },
        Route(method: .get, path: "/admin/v1/clients/{id}/deliveries/failed", scope: .clientsRead, accepted: 404...404) { _ in nil },
        Route(
            method: .post, path: "/admin/v1/clients/{id}/deliveries/{deliveryId}/retry", scope: .clientsWrite, accepted: 404...404
        ) { _ in nil },
        // Last: it erases the table's user.
        Route(method: .delete, path: "/admin/v1/users/{id}", scope: .usersWrite) { _ in nil },
    ]

    @Test("every admin route of openapi.yaml has a line in the scope table")
    func everyDocumentedRouteIsListed() async throws {
        try await TestServer().run { api in
            let text = String(decoding: try await api.send(.get, "/openapi.yaml").body, as: UTF8.self)
            var documented: Set<String> = []
            var path: String?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("  /") { path = line.hasPrefix("  /admin/") ? String(line.dropFirst(2).dropLast()) : nil }
                if let path, let method = ["get", "post", "put", "patch", "delete"].first(where: { line == "    \($0):" }) {
                    documented.insert("\(method.uppercased()) \(path)")
                }
            }
            #expect(!documented.isEmpty)
            #expect(documented == Set(Self.routes.map(\.description)))
        }
    }

    @Test("each admin route refuses a key holding every other scope, naming its own, and accepts a key with just it")
    func eachRouteNeedsItsScope() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("target@example.com")
            var device = TestDevice()
            try await api.activate(&device, userID: userID)
            for (index, route) in Self.routes.enumerated() {
                let others = AdminScope.allCases.filter { $0 != route.scope }.map(\.rawValue).joined(separator: ",")
                let without = try await api.services.adminKeys.create(name: "without-\(index)", scopes: others)
                let with = try await api.services.adminKeys.create(name: "with-\(index)", scopes: route.scope.rawValue)
                let uri = route.uri(user: userID, device: device.deviceID)

                let refused = try await api.send(route.method, uri, bearer: without.key, body: route.body(index))
                #expect(refused.status == 403, "\(route)")
                #expect(refused.problem?.code == .forbidden, "\(route)")
                #expect(refused.problem?.detail?.contains(route.scope.rawValue) == true, "\(route): \(refused.problem?.detail ?? "")")

                let accepted = try await api.send(route.method, uri, bearer: with.key, body: route.body(index))
                #expect(route.accepted.contains(accepted.status), "\(route): \(accepted.status) \(accepted.problem?.description ?? "")")
            }
            // The bootstrap key keeps every scope.
            #expect(try await api.send(.get, "/admin/v1/users", admin: true).status == 200)
        }
    }

    @Test("no key, a wrong key, a wrong secret for a real key id, or a revoked key: 401, and the revocation is at once")
    func unknownAndRevokedKeys() async throws {
        try await TestServer().run { api in
            let created = try await api.services.adminKeys.create(name: "desk", scopes: "users:read")
            #expect(try await api.send(.get, "/admin/v1/users", bearer: created.key).status == 200)

            #expect(try await api.send(.get, "/admin/v1/users", bearer: nil).problem?.code == .unauthorized)
            #expect(try await api.send(.get, "/admin/v1/users", bearer: "not-a-key-at-all-0123").status == 401)
            let forged = created.record.id + "." + Base64URL.encode([UInt8](repeating: 1, count: 32))
            let wrong = try await api.send(.get, "/admin/v1/users", bearer: forged)
            #expect(wrong.status == 401)
            #expect(wrong.problem?.code == .unauthorized)

            try await api.services.adminKeys.revoke("desk")
            let revoked = try await api.send(.get, "/admin/v1/users", bearer: created.key)
            #expect(revoked.status == 401)
            #expect(revoked.problem?.code == .unauthorized)
            // Revoked keys are listed, with the date, and keep their name.
            #expect(try await api.services.adminKeys.list().first?.revokedAt == api.clock.now())
            await #expect(throws: Problem.self) { try await api.services.adminKeys.create(name: "desk", scopes: "users:read") }
        }
    }

    @Test("keys need a valid name and at least one known scope; the key is shown once and only its hash is kept")
    func creationRules() async throws {
        try await TestServer().run { api in
            for (name, scopes) in [("", "users:read"), ("with space", "users:read"), ("ok", ""), ("ok", "users:read,users:delete")] {
                let refusal = await #expect(throws: Problem.self) { try await api.services.adminKeys.create(name: name, scopes: scopes) }
                #expect(refusal?.code == .requestInvalid)
            }
            #expect(try await api.services.adminKeys.list().isEmpty)
            let created = try await api.services.adminKeys.create(name: "ops", scopes: "users:write, users:read,users:read")
            #expect(created.record.scopes == [.usersRead, .usersWrite])
            #expect(created.key.hasPrefix(created.record.id + "."))
            let stored = try #require(try await api.services.store.adminKey(id: created.record.id))
            #expect(stored.keyHash.count == 32)
            #expect(!String(decoding: stored.keyHash, as: UTF8.self).contains(created.key))
            let audit = try await api.services.store.auditEntries(after: 0, limit: 100).map(\.draft)
            let entry = try #require(audit.first { $0.event == "admin.key_created" })
            #expect(entry.details["key"] == "ops" && entry.details["scopes"] == "users:read,users:write")
            #expect(!entry.details.values.contains { $0.contains(created.key) })
        }
    }

    @Test("last used is written at most once a minute")
    func lastUsedOncePerMinute() async throws {
        try await TestServer().run { api in
            let created = try await api.services.adminKeys.create(name: "poller", scopes: "users:read")
            #expect(try await api.services.store.adminKey(id: created.record.id)?.lastUsedAt == nil)
            let first = api.clock.now()
            #expect(try await api.send(.get, "/admin/v1/users", bearer: created.key).status == 200)
            #expect(try await api.services.store.adminKey(id: created.record.id)?.lastUsedAt == first)
            api.clock.advance(by: 59)
            #expect(try await api.send(.get, "/admin/v1/users", bearer: created.key).status == 200)
            #expect(try await api.services.store.adminKey(id: created.record.id)?.lastUsedAt == first, "not written again within a minute")
            api.clock.advance(by: 1)
            #expect(try await api.send(.get, "/admin/v1/users", bearer: created.key).status == 200)
            #expect(try await api.services.store.adminKey(id: created.record.id)?.lastUsedAt == first + 60)
        }
    }

    @Test("the audit trail names the key that acted, and records a refused scope")
    func auditNamesTheKey() async throws {
        try await TestServer().run { api in
            let userID = try await api.createUser("locked@example.com")
            let desk = try await api.services.adminKeys.create(name: "support-desk", scopes: "users:unblock")
            #expect(try await api.send(.post, "/admin/v1/users/\(userID)/unblock", bearer: desk.key).status == 200)
            #expect(try await api.send(.get, "/admin/v1/users", bearer: desk.key).status == 403)
            let entries = try await api.services.store.auditEntries(after: 0, limit: 100).map(\.draft)
            let unblocked = try #require(entries.first { $0.event == "admin.user_unblocked" })
            #expect(unblocked.actor == "key:support-desk")
            let denied = try #require(entries.first { $0.event == "admin.access_denied" })
            #expect(denied.actor == "key:support-desk")
            #expect(denied.outcome == "rejected" && denied.details["scope"] == "users:read")
            // The bootstrap key still acts as `admin`.
            #expect(entries.first { $0.event == "admin.user_created" }?.actor == "admin")
        }
    }

    @Test("without a bootstrap key the admin API admits scoped keys only")
    func withoutBootstrapKey() async throws {
        try await TestServer { $0.adminKey = nil }.run { api in
            #expect(try await api.send(.get, "/admin/v1/users", admin: true).status == 401)
            let created = try await api.services.adminKeys.create(name: "only", scopes: "users:read")
            #expect(try await api.send(.get, "/admin/v1/users", bearer: created.key).status == 200)
        }
    }

    @Test("no admin key, scoped or bootstrap, appears in any log line, at trace level")
    func keysNeverLogged() async throws {
        let capture = LogCapture()
        let server = try await TestServer(logger: capture.logger(label: "sca-server", metadataProvider: .requestInfo))
        defer { try? FileManager.default.removeItem(at: server.directory) }
        let app = Application(
            router: server.services.router(), logger: capture.logger(label: "hummingbird", metadataProvider: .requestInfo))
        let secrets = SecretList()
        secrets.add(TestServer.adminKey)
        try await app.test(.router) { client in
            let api = APIClient(client: client, clock: server.clock, services: server.services)
            let userID = try await api.createUser("logged@example.com")
            let reader = try await api.services.adminKeys.create(name: "reader", scopes: "users:read")
            let writer = try await api.services.adminKeys.create(name: "writer", scopes: "users:write")
            secrets.add(reader.key, writer.key, String(reader.key.split(separator: ".")[1]))
            #expect(try await api.send(.get, "/admin/v1/users/\(userID)", bearer: reader.key).status == 200)
            #expect(try await api.send(.get, "/admin/v1/users", bearer: writer.key).status == 403)
            #expect(try await api.send(.get, "/admin/v1/users", bearer: reader.key + "x").status == 401)
            try await api.services.adminKeys.revoke("reader")
            #expect(try await api.send(.get, "/admin/v1/users", bearer: reader.key).status == 401)
            api.clock.advance(by: 120)
            #expect(try await api.send(.get, "/admin/v1/users", bearer: writer.key).status == 403)
        }
        let lines = capture.captured
        #expect(lines.count > 5, "the requests should have been logged")
        for line in lines {
            for secret in secrets.all where line.rendered.contains(secret) {
                Issue.record("a log line contains an admin key: \(line.rendered)")
            }
        }
        let audit = try await server.services.store.auditEntries(after: 0, limit: 100)
        for entry in audit {
            let text = "\(entry.draft)"
            for secret in secrets.all where text.contains(secret) { Issue.record("an audit entry contains an admin key: \(text)") }
        }
    }

    @Test("the audit trail pages as the export writes it, for audit:read only; bad paging is refused")
    func auditPages() async throws {
        try await TestServer().run { api in
            for index in 0..<3 { _ = try await api.createUser("a\(index)@example.com") }
            let auditor = try await api.services.adminKeys.create(name: "auditor", scopes: "audit:read")
            let first = try await api.send(.get, "/admin/v1/audit?limit=2", bearer: auditor.key)
            #expect(first.status == 200)
            let entries = try #require(first.json["entries"] as? [[String: Any]])
            #expect(entries.map { $0["event"] as? String } == ["admin.user_created", "admin.user_created"])
            #expect(entries.allSatisfy { ($0["hash"] as? String)?.count == 64 })
            #expect(first.json["next"] as? Int == 2)
            let rest = try await api.send(.get, "/admin/v1/audit?after=2&limit=1000", bearer: auditor.key)
            #expect((rest.json["entries"] as? [[String: Any]])?.first?["sequence"] as? Int == 3)
            #expect(rest.json["next"] == nil)
            for bad in ["limit=0", "limit=1001", "after=-1", "after=x"] {
                let response = try await api.send(.get, "/admin/v1/audit?\(bad)", bearer: auditor.key)
                #expect(response.status == 400, "\(bad)")
                #expect(response.problem?.code == .requestInvalid)
            }
        }
    }
}
