import Foundation
import HTTPTypes
import SCACore
import SCAEngine
import Testing

/// Back-office operators on the admin API with their own tokens: the permission from their
/// roles, SCA, and an authentication at most 5 minutes old; roles and permissions in tokens.
@Suite("Operators and roles")
struct OperatorAccessTests {
    /// Two roles as the configuration defines them; tokens live longer than the step-up window
    /// so that a token can be valid and yet too old for the admin API.
    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.roles = ["support": ["users:read", "users:unblock"], "auditor": ["audit:read", "users:read"]]
        configuration.accessTokenLifetime = 900
        configuration.policies[.login] = OperationPolicy(verdict: .immediate)
    }

    @Test("tokens carry the roles and permissions, sorted and once each; introspection returns them")
    func rolesInTokens() async throws {
        try await TestServer(Self.configure).run { api in
            let userID = try await api.createUser("op@example.com", roles: ["support", "auditor", "support", "customer"])
            let tokens = try await api.logIn("op@example.com", totp: try await api.enrollTOTP(userID))
            let access = try #require(tokens.accessToken)
            let claims = try jwtClaims(access)
            #expect(claims["roles"] as? [String] == ["auditor", "customer", "support"])
            #expect(claims["permissions"] as? [String] == ["audit:read", "users:read", "users:unblock"])
            #expect(claims["auth_time"] as? Int == Int(api.clock.now().timeIntervalSince1970))

            let introspected = try await api.introspect(access)
            #expect(introspected.roles == ["auditor", "customer", "support"])
            #expect(introspected.permissions == ["audit:read", "users:read", "users:unblock"])
            #expect(introspected.authTime == claims["auth_time"] as? Int)

            // A user without roles gets empty lists, not missing ones.
            let plainID = try await api.createUser("plain@example.com")
            let plain = try await api.logIn("plain@example.com", totp: try await api.enrollTOTP(plainID))
            #expect(try jwtClaims(try #require(plain.accessToken))["roles"] as? [String] == [])
            #expect(try await api.introspect(try #require(plain.accessToken)).permissions == [])
        }
    }

    @Test("a role change shows at the next token, a refresh included, and is audited with the actor")
    func roleChangeAtRefresh() async throws {
        try await TestServer(Self.configure).run { api in
            let userID = try await api.createUser("grow@example.com", roles: ["customer"])
            let tokens = try await api.logIn("grow@example.com", totp: try await api.enrollTOTP(userID))
            #expect(try jwtClaims(try #require(tokens.accessToken))["permissions"] as? [String] == [])

            let changed = try await api.send(
                .put, "/admin/v1/users/\(userID)/roles", body: try WireJSON.encoder().encode(SetRolesRequest(roles: ["support"])),
                admin: true)
            #expect(changed.status == 200)
            #expect(try changed.decode(UserResponse.self).roles == ["support"])

            api.clock.advance(by: 10)
            let refreshed = try await api.post("/v1/tokens/refresh", RefreshRequest(refreshToken: try #require(tokens.refreshToken)))
            #expect(refreshed.status == 200)
            let claims = try jwtClaims(try refreshed.decode(TokenResponse.self).accessToken)
            #expect(claims["roles"] as? [String] == ["support"])
            #expect(claims["permissions"] as? [String] == ["users:read", "users:unblock"])
            // The refresh keeps the session's authentication time.
            #expect(claims["auth_time"] as? Int == Int(api.clock.now().timeIntervalSince1970) - 10)

            let entries = try await api.services.store.auditEntries(after: 0, limit: 100).map(\.draft)
            let entry = try #require(entries.first { $0.event == "admin.roles_changed" })
            #expect(entry.actor == "admin" && entry.userID == userID)
            #expect(entry.details["before"] == "customer" && entry.details["after"] == "support")
        }
    }

    @Test("an operator's fresh SCA token opens the routes its permissions name and no other, naming what is missing")
    func operatorPermissions() async throws {
        try await TestServer(Self.configure).run { api in
            let operatorID = try await api.createUser("desk@example.com", roles: ["support"])
            let customerID = try await api.createUser("customer@example.com")
            let token = try #require(try await api.logIn("desk@example.com", totp: try await api.enrollTOTP(operatorID)).accessToken)

            #expect(try await api.send(.get, "/admin/v1/users", bearer: token).status == 200)
            #expect(try await api.send(.post, "/admin/v1/users/\(customerID)/unblock", bearer: token).status == 200)
            for (method, path, scope) in [
                (HTTPRequest.Method.post, "/admin/v1/users/\(customerID)/totp", "users:write"),
                (.post, "/admin/v1/users/\(customerID)/activations", "devices:write"),
            ] {
                let refused = try await api.send(method, path, bearer: token)
                #expect(refused.status == 403)
                #expect(refused.problem?.code == .forbidden)
                #expect(refused.problem?.detail == "Your roles do not grant the permission \(scope).")
            }
            let entries = try await api.services.store.auditEntries(after: 0, limit: 200).map(\.draft)
            #expect(entries.first { $0.event == "admin.user_unblocked" }?.actor == "operator:\(operatorID)")
            let denied = entries.filter { $0.event == "admin.access_denied" }
            #expect(denied.map(\.actor) == ["operator:\(operatorID)", "operator:\(operatorID)"])
            #expect(denied.first?.userID == operatorID)

            // A customer's token (no admin permission at all) is refused outright.
            let customer = try await api.logIn("customer@example.com", totp: try await api.enrollTOTP(customerID))
            let refused = try await api.send(.get, "/admin/v1/users", bearer: try #require(customer.accessToken))
            #expect(refused.status == 403)
            #expect(refused.problem?.code == .forbidden)
        }
    }

    @Test("an operator token whose authentication is older than 5 minutes is refused, and a refresh does not renew it")
    func stepUpExpires() async throws {
        try await TestServer(Self.configure).run { api in
            let operatorID = try await api.createUser("late@example.com", roles: ["support"])
            let tokens = try await api.logIn("late@example.com", totp: try await api.enrollTOTP(operatorID))
            let token = try #require(tokens.accessToken)
            api.clock.advance(by: 200)
            #expect(try await api.send(.get, "/admin/v1/users", bearer: token).status == 200)
            api.clock.advance(by: 100)
            // Exactly 5 minutes: still admitted.
            #expect(try await api.send(.get, "/admin/v1/users", bearer: token).status == 200)
            api.clock.advance(by: 1)
            let late = try await api.send(.get, "/admin/v1/users", bearer: token)
            #expect(late.status == 403)
            #expect(late.problem?.code == .forbidden)
            #expect(late.problem?.detail?.contains("5 minutes") == true)
            // The token itself is still valid elsewhere: only the admin API wants a recent SCA.
            #expect(try await api.introspect(token).active)

            let refreshed = try await api.post("/v1/tokens/refresh", RefreshRequest(refreshToken: try #require(tokens.refreshToken)))
            let renewed = try refreshed.decode(TokenResponse.self).accessToken
            let stillLate = try await api.send(.get, "/admin/v1/users", bearer: renewed)
            #expect(stillLate.status == 403)
            #expect(stillLate.problem?.detail?.contains("5 minutes") == true)

            // A new SCA opens it again.
            let again = try #require(try await api.logIn("late@example.com", totp: try await api.enrollTOTP(operatorID)).accessToken)
            #expect(try await api.send(.get, "/admin/v1/users", bearer: again).status == 200)
        }
    }

    @Test("an operator token earned with a single factor is refused, though its roles grant the permission")
    func singleFactorRefused() async throws {
        try await TestServer {
            Self.configure(&$0)
            $0.policies[.login] = OperationPolicy(requiredCategories: 1, verdict: .immediate)
        }.run { api in
            let operatorID = try await api.createUser("weak@example.com", roles: ["support"])
            let challenge = try await api.startChallenge(email: "weak@example.com")
            let proof = try await api.prove(challenge.challengeId, .password, "correct horse battery")
            let token = try #require(try proof.decode(ProofResponse.self).accessToken)
            #expect(try jwtClaims(token)["amr"] as? [String] == ["password"])
            let refused = try await api.send(.get, "/admin/v1/users", bearer: token)
            #expect(refused.status == 403)
            #expect(refused.problem?.detail?.contains("strong customer authentication") == true)
            _ = operatorID
        }
    }

    @Test("taking a role away stops the operator at once; nobody changes their own roles")
    func roleRemovalAndSelfChange() async throws {
        try await TestServer {
            Self.configure(&$0)
            $0.roles["admins"] = ["users:read", "users:roles"]
        }.run { api in
            let operatorID = try await api.createUser("boss@example.com", roles: ["admins"])
            let otherID = try await api.createUser("other@example.com", roles: ["support"])
            let token = try #require(try await api.logIn("boss@example.com", totp: try await api.enrollTOTP(operatorID)).accessToken)
            let roles = { (names: [String]) in try WireJSON.encoder().encode(SetRolesRequest(roles: names)) }

            let own = try await api.send(.put, "/admin/v1/users/\(operatorID)/roles", bearer: token, body: try roles(["admins", "support"]))
            #expect(own.status == 403)
            #expect(own.problem?.detail == "An operator cannot change their own roles.")
            #expect(try await api.services.users.find(operatorID)?.roles == ["admins"])
            #expect(try await api.send(.put, "/admin/v1/users/\(otherID)/roles", bearer: token, body: try roles(["auditor"])).status == 200)

            #expect(try await api.send(.put, "/admin/v1/users/\(operatorID)/roles", body: try roles([]), admin: true).status == 200)
            let after = try await api.send(.get, "/admin/v1/users", bearer: token)
            #expect(after.status == 403)
            #expect(after.problem?.code == .forbidden)
        }
    }

    @Test("roles are display text, up to 16: a bad list is refused and changes nothing")
    func badRoles() async throws {
        try await TestServer(Self.configure).run { api in
            let userID = try await api.createUser("r@example.com", roles: ["support"])
            for names in [Array(repeating: "x", count: 17).enumerated().map { "r\($0.offset)" }, [""], ["a\u{202E}b"]] {
                let response = try await api.send(
                    .put, "/admin/v1/users/\(userID)/roles", body: try WireJSON.encoder().encode(SetRolesRequest(roles: names)),
                    admin: true)
                #expect(response.status == 400)
                #expect(response.problem?.code == .requestInvalid)
            }
            #expect(try await api.services.users.find(userID)?.roles == ["support"])
        }
    }

    @Test("roles come from the configuration file and SCA_ROLES_<ROLE>; bad names and permissions are refused")
    func rolesConfiguration() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("roles-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"roles": {"support": ["users:unblock", "users:read", "users:read"], "auditor": ["audit:read"]}}"#.utf8).write(to: file)
        let configuration = try ConfigurationLoader().load(
            file: file.path, environment: ["SCA_ROLES_BACK_OFFICE": "users:read, devices:write"], flags: [:])
        #expect(configuration.roles == [
            "support": ["users:read", "users:unblock"], "auditor": ["audit:read"], "back_office": ["devices:write", "users:read"],
        ])
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader().load(file: nil, environment: ["SCA_ROLES_SUPPORT": "users read"], flags: [:])
        }
        #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader().load(file: nil, environment: [:], flags: ["roles.Support": "users:read"])
        }
        var inCode = ServerConfiguration()
        inCode.roles = ["ok": ["Users:Read"]]
        #expect(throws: ConfigurationError.self) { try inCode.validate() }
    }
}
