import Foundation
import SCACore
import Testing

@Suite("Admin scopes, role permissions and the operator step-up rule")
struct AccessTests {
    @Test("scope lists: each once, sorted; an unknown word or an empty list is named")
    func scopeLists() throws {
        #expect(try AdminScope.list(" users:write,users:read ,users:read").get() == [.usersRead, .usersWrite])
        #expect(throws: AdminScope.InvalidScope(word: "users:delete")) { try AdminScope.list("users:read,users:delete").get() }
        #expect(throws: AdminScope.InvalidScope(word: "")) { try AdminScope.list(" , ").get() }
        // Every admin area the API has or will have.
        let areas = Set(AdminScope.allCases.map { $0.rawValue.split(separator: ":")[0] })
        #expect(areas == ["users", "devices", "clients", "operations", "risk", "audit"])
    }

    @Test("permissions of roles: union, sorted, once each; undefined roles grant nothing")
    func rolePermissions() {
        let roles = RolePermissions(["support": ["users:unblock", "users:read"], "auditor": ["audit:read", "users:read"]])
        #expect(roles.permissions(for: ["support", "auditor", "nobody"]) == ["audit:read", "users:read", "users:unblock"])
        #expect(roles.permissions(for: []) == [])
        #expect(RolePermissions.normalized(["b", "a", "b"]) == ["a", "b"])
        #expect(RolePermissions.isValidRoleName("back_office2"))
        for bad in ["", "Support", "2fa", "a-b", String(repeating: "a", count: 65)] { #expect(!RolePermissions.isValidRoleName(bad)) }
        #expect(RolePermissions.isValidPermission("payments:approve.eu-1"))
        for bad in ["", "Users:read", "users read"] { #expect(!RolePermissions.isValidPermission(bad)) }
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func stepUp(
        acr: String = "psd2.sca", amr: [AuthenticationMethod] = [.password, .totp], authAge: TimeInterval = 0,
        issuedAge: TimeInterval = 0
    ) -> OperatorStepUp {
        OperatorStepUp(
            permissions: ["users:read"], acr: acr, amr: amr, authTime: now - authAge, issuedAt: now - issuedAge)
    }

    @Test("a fresh SCA token with the permission is admitted; each missing piece is named")
    func stepUpRule() {
        #expect(Self.stepUp().refusal(for: .usersRead, now: Self.now) == nil)
        #expect(Self.stepUp(authAge: 300, issuedAge: 300).refusal(for: .usersRead, now: Self.now) == nil)
        #expect(Self.stepUp().refusal(for: .usersUnblock, now: Self.now) == .missingPermission(.usersUnblock))
        // An exemption is no SCA, nor is one category twice, nor a single factor.
        #expect(Self.stepUp(acr: "psd2.exempt").refusal(for: .usersRead, now: Self.now) == .notStrong)
        #expect(Self.stepUp(amr: [.password, .pin]).refusal(for: .usersRead, now: Self.now) == .notStrong)
        #expect(Self.stepUp(amr: [.totp]).refusal(for: .usersRead, now: Self.now) == .notStrong)
        // Too old: the authentication (a refreshed token) or the token itself.
        #expect(Self.stepUp(authAge: 301).refusal(for: .usersRead, now: Self.now) == .tooOld)
        #expect(Self.stepUp(issuedAge: 301).refusal(for: .usersRead, now: Self.now) == .tooOld)
        var noAuthTime = Self.stepUp()
        noAuthTime.authTime = nil
        #expect(noAuthTime.refusal(for: .usersRead, now: Self.now) == .tooOld)
        // The permission is named first, whatever else is wrong.
        #expect(Self.stepUp(acr: "psd2.exempt", authAge: 900).refusal(for: .auditRead, now: Self.now) == .missingPermission(.auditRead))
    }
}
