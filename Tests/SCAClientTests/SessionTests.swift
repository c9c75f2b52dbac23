import Foundation
import SCAClient
import Testing

/// The stored session: refresh before expiry, sign-out.
@Suite struct SessionTests {
    @Test func accessTokenIsRefreshedBeforeItExpires() async throws {
        let server = try await SDKTestServer { $0.accessTokenLifetime = 60 }
        try await server.run { server in
            let userID = try await server.createUser("ma@example.com")
            let client = server.client()
            _ = try await server.activate(client, for: userID)
            let first = try await client.coldStart(using: ScriptedCollector(.init()))
            #expect(try await client.validAccessToken() == first.accessToken)

            // 35 s on, the token expires in 25 s: within the 30 s margin.
            server.clock.advance(by: 35)
            let refreshed = try await client.validAccessToken()

            #expect(refreshed != first.accessToken)
            #expect(try await client.introspect(refreshed).active)
            // Asked again, the fresh token is kept.
            #expect(try await client.validAccessToken() == refreshed)
        }
    }

    @Test func refreshRotatesTheStoredRefreshToken() async throws {
        let server = try await SDKTestServer { $0.accessTokenLifetime = 60 }
        try await server.run { server in
            let userID = try await server.createUser("na@example.com")
            let store = InMemoryTokenStore()
            let client = server.client(tokenStore: store)
            _ = try await server.activate(client, for: userID)
            let first = try await client.coldStart(using: ScriptedCollector(.init()))
            #expect(try await store.load()?.refreshToken == first.refreshToken)

            server.clock.advance(by: 45)
            // Concurrent callers share one refresh: a second use of the old refresh token would
            // revoke the session.
            async let one = client.validAccessToken()
            async let two = client.validAccessToken()
            let (a, b) = try await (one, two)

            #expect(a == b)
            let stored = try #require(try await store.load())
            #expect(stored.accessToken == a)
            #expect(stored.refreshToken != nil)
            #expect(stored.refreshToken != first.refreshToken)
            #expect(try await client.introspect(a).active)
        }
    }

    @Test func signOutRevokesTheSessionAndKeepsTheBinding() async throws {
        try await SDKTestServer().run { server in
            let userID = try await server.createUser("oa@example.com")
            let keyStore = FileDeviceKeyStore(directory: server.keyDirectory())
            let client = server.client(keyStore: keyStore)
            let binding = try await server.activate(client, for: userID)
            let tokens = try await client.coldStart(using: ScriptedCollector(.init()))

            try await client.signOut()

            #expect(try await client.introspect(tokens.accessToken).active == false)
            await #expect(throws: SCAClientError.notSignedIn) { try await client.validAccessToken() }
            #expect(try await keyStore.binding() == binding)
            // The device signs in again.
            _ = try await client.coldStart(using: ScriptedCollector(.init()))
        }
    }
}

/// Roles and permissions of the session.
@Suite struct SessionAccessTests {
    @Test func rolesAndPermissionsOfTheSessionFollowARefresh() async throws {
        let server = try await SDKTestServer {
            $0.accessTokenLifetime = 60
            $0.roles = ["support": ["users:unblock", "users:read"]]
        }
        try await server.run { server in
            let userID = try await server.services.users.create(
                CreateUserRequest(email: "ra@example.com", password: Harness.password, roles: ["support", "customer"])).id
            let client = server.client()
            #expect(try await client.sessionAccess() == nil)
            _ = try await server.activate(client, for: userID)
            _ = try await client.coldStart(using: ScriptedCollector(.init()))
            let access = try #require(try await client.sessionAccess())
            #expect(access.roles == ["customer", "support"])
            #expect(access.permissions == ["users:read", "users:unblock"])
            #expect(access.authenticatedAt == Date(timeIntervalSince1970: server.clock.now().timeIntervalSince1970.rounded(.down)))

            _ = try await server.services.users.setRoles(userID: userID, [])
            // Still the token signed before the change, until the next refresh.
            #expect(try await client.sessionAccess()?.roles == ["customer", "support"])
            server.clock.advance(by: 45)
            _ = try await client.validAccessToken()
            #expect(try await client.sessionAccess() == SessionAccess(roles: [], permissions: [], authenticatedAt: access.authenticatedAt))
        }
    }
}
