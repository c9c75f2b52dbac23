import Foundation
import SCAClient
import SCAServer
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
