import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SCACore
import SCAStorage
import Testing

/// `GET /admin/v1/users/{id}/export`: everything stored about a user (GDPR art. 15 and 20), and
/// never a secret.
@Suite("A user's data exported")
struct UserExportTests {
    @Test("the export holds the account, sessions, partner sign-ins, operations and the user's audit entries, and no secret")
    func everythingButSecrets() async throws {
        try await TestServer { $0.webhookAllowPrivateAddresses = true }.run { api in
            let shop = try await PartnerFixture.make(api)
            let tokens = try await shop.tokens(email: "alice@example.com", phone: "+33612345678")
            let alice = try #require(try await api.services.store.user(email: "alice@example.com"))
            var profile = alice.profile
            profile.name = "Alice Martin"
            _ = try await api.services.store.updateUser(id: alice.id, UserUpdate(profile: profile))
            var device = TestDevice()
            try await api.activate(&device, userID: alice.id)
            let operation = try await PartnerWebhookTests.createOperation(api, as: shop, userID: alice.id)
            _ = try await api.createUser("bob@example.com", phone: "+33612345679")

            let response = try await api.send(.get, "/admin/v1/users/\(alice.id)/export", admin: true)
            #expect(response.status == 200)
            let export = try response.decode(UserDataExport.self)
            #expect(export.user.userId == alice.id && export.user.email == "alice@example.com")
            #expect(export.user.devices.count == 1)
            #expect(export.profile.name == "Alice Martin")
            #expect(export.sessions.contains { $0.clientId == shop.clientID })
            #expect(export.partnerSignIns.map(\.clientId) == [shop.clientID])
            #expect(export.partnerSignIns.first?.redeemedAt != nil)
            #expect(export.operations.map(\.operationId) == [operation.operationId])
            #expect(export.operations.first?.transaction?.payee.iban == "FR7630006000011234567890189")
            #expect(!export.auditEvents.isEmpty)
            for event in export.auditEvents {
                guard case .object(let fields) = event else { Issue.record("not an object"); continue }
                #expect(fields["userId"] == .string(alice.id), "only the user's entries")
            }

            // No secret, in any form the store keeps one.
            let body = String(decoding: response.body, as: UTF8.self)
            let stored = try #require(try await api.services.store.user(id: alice.id))
            for secret in [
                PartnerFixture.password, stored.passwordHash, try #require(tokens["access_token"] as? String),
                try #require(tokens["refresh_token"] as? String), try #require(tokens["id_token"] as? String),
            ].compactMap({ $0 }) {
                #expect(!body.contains(secret))
            }
            #expect(!body.contains("bob@example.com"), "nobody else's data")
            for field in ["sealed", "passwordHash", "pinHash", "codeHash", "secretHash", "totp_seed", "codeChallenge"] {
                #expect(!body.contains(field))
            }

            // The export is itself in the trail, naming the user.
            let trail = try await api.services.store.auditEntries(after: 0, limit: 10_000)
            #expect(trail.last?.draft.event == "admin.user_exported" && trail.last?.draft.userID == alice.id)

            #expect(try await api.send(.get, "/admin/v1/users/usr_unknownUnknownUnknown1/export", admin: true).status == 404)
            #expect(try await api.send(.get, "/admin/v1/users/not-an-id/export", admin: true).status == 404)
            #expect(try await api.send(.get, "/admin/v1/users/\(alice.id)/export").status == 401)
        }
    }
}
