import Foundation
import SCACore
import SCAStorage

/// Seeds the four demo users of `sca-server serve --demo`, so a newcomer can log in at once.
/// They are created once per data directory and then kept as they are: a restart changes no
/// password and no TOTP seed, so an authenticator (or `sca`) set up before it still works and
/// a restart never costs a try against the lockout. The banner shows the admin's seed again.
package struct DemoSeeder: Sendable {
    /// What a demo user can prove with, printed at start-up.
    package struct Credentials: Sendable {
        package var email: String
        package var password: String
        package var pin: String?
        package var phone: String?
        package var emailCodes: Bool
        package var totpURI: String?
        package var roles: [String]
    }

    let users: UserService

    package init(users: UserService) { self.users = users }

    package func seed() async throws -> [Credentials] {
        let demo: [(CreateUserRequest, totp: Bool)] = [
            (CreateUserRequest(email: "savvy@example.com", password: "savvy-demo-pass", phone: "+33600000001", emailCodes: true), false),
            (CreateUserRequest(email: "sam@example.com", password: "sam-demo-pass", phone: "+33600000002", emailCodes: false), false),
            (CreateUserRequest(
                email: "admin@example.com", password: "admin-demo-pass", pin: "2468", phone: "+33600000003",
                roles: ["admin"], emailCodes: true), true),
            (CreateUserRequest(email: "mail@example.com", password: "mail-demo-pass", emailCodes: true), false),
        ]
        var seeded: [Credentials] = []
        for (request, wantsTOTP) in demo {
            let user: UserRecord
            let totp: String?
            if let existing = try await users.find(request.email) {
                user = existing
                totp = wantsTOTP ? try users.enrolledTOTPURI(of: existing) : nil
            } else {
                user = try await users.create(request)
                totp = wantsTOTP ? try await users.enrollTOTP(userID: user.id).otpauthUri : nil
            }
            seeded.append(Credentials(
                email: user.email, password: request.password ?? "", pin: request.pin, phone: request.phone,
                emailCodes: request.emailCodes ?? true, totpURI: totp, roles: request.roles ?? []))
        }
        return seeded
    }
}
