import Foundation
import SCACore
import Testing

/// Two sign-up details through the routes against the real store: an operator sets a user's
/// login phone; a phone user's TOTP is labelled with their number, not the placeholder e-mail.
@Suite("Sign-up details: login phone by an operator, TOTP label of a phone user")
struct SignUpLeftoversTests {
    @Test("PATCH /admin/v1/users/{id} sets loginPhone normalized as sign-up does; a held number is 409, a bad one 400, nothing changed")
    func adminSetsLoginPhone() async throws {
        try await TestServer { $0.signUp.mode = .phone }.run { api in
            let ann = try await api.createUser("ann@example.com", phone: "+447700900123")
            let bob = try await api.createUser("bob@example.com")
            let set = try await api.send(
                .patch, "/admin/v1/users/\(ann)", body: try WireJSON.encoder().encode(UpdateUserRequest(loginPhone: "+44 7700 900-123")),
                admin: true)
            #expect(set.status == 200)
            #expect(try set.decode(UserResponse.self).loginPhone == "+447700900123")
            #expect(try await api.services.store.user(loginPhone: "+447700900123")?.id == ann)

            let taken = try await api.send(
                .patch, "/admin/v1/users/\(bob)",
                body: try WireJSON.encoder().encode(UpdateUserRequest(phone: "+33612345678", loginPhone: "+447700900123")), admin: true)
            #expect(taken.status == 409)
            #expect(taken.problem?.code == .userExists)
            #expect(taken.problem?.detail == "another user signs in with this phone number")
            for bad in ["07700 900123", "+0447700900123", "+44 abc", ""] {
                let refused = try await api.send(
                    .patch, "/admin/v1/users/\(bob)", body: try WireJSON.encoder().encode(UpdateUserRequest(loginPhone: bad)), admin: true)
                #expect(refused.status == 400, "\(bad)")
                #expect(refused.problem?.code == .requestInvalid, "\(bad)")
            }
            let unchanged = try #require(try await api.services.store.user(id: bob))
            #expect(unchanged.loginPhone == nil && unchanged.phone == nil)
            let events = try await api.services.store.auditEntries(after: 0, limit: 1_000).map(\.draft)
            #expect(events.contains { $0.event == "admin.user_updated" && $0.details["fields"] == "loginPhone" })

            // The number now signs Ann in through signup-or-in: her SMS code, then her password.
            let login = try api.decodeSignUp(try await api.post("/v1/signup-or-in", SignUpOrInRequest(phone: "+447700900123")))
            #expect(try await api.sendCode(login.challengeId, .smsOTP).status == 202)
            let first = try await api.prove(login.challengeId, .smsOTP, try api.lastCode(sentTo: "+447700900123"))
                .decode(ProofResponse.self)
            #expect(first.status == .partial)
            let done = try await api.prove(login.challengeId, .password, "correct horse battery").decode(ProofResponse.self)
            #expect(done.status == .complete)
            #expect(try jwtClaims(try #require(done.accessToken))["sub"] as? String == ann)
        }
    }

    @Test("a phone user's TOTP (at enrolment and by an operator) is labelled with the number; an e-mail user's with the e-mail")
    func totpLabel() async throws {
        try await TestServer { $0.signUp.mode = .emailAndPhone }.run { api in
            let token = try #require(try await api.signUpByPhone("+447700900124").accessToken)
            let enrolled = try await api.send(
                .post, "/v1/me/enrolment", bearer: token,
                body: try WireJSON.encoder().encode(EnrolmentRequest(password: "a new long passphrase", totp: true)))
            #expect(enrolled.status == 200)
            let uri = try #require(try enrolled.decode(EnrolmentResponse.self).totp?.otpauthUri)
            #expect(uri.hasPrefix("otpauth://totp/sca-server:%2B447700900124?"), "\(uri)")
            #expect(!uri.contains("phone.invalid"))
            let user = try #require(try await api.services.store.user(loginPhone: "+447700900124"))
            let byOperator = try await api.send(.post, "/admin/v1/users/\(user.id)/totp", admin: true)
            #expect(try byOperator.decode(TOTPEnrollmentResponse.self).otpauthUri.hasPrefix("otpauth://totp/sca-server:%2B447700900124?"))

            let other = try await api.createUser("eve@example.com")
            let byEmail = try await api.send(.post, "/admin/v1/users/\(other)/totp", admin: true)
            #expect(try byEmail.decode(TOTPEnrollmentResponse.self).otpauthUri.hasPrefix("otpauth://totp/sca-server:eve%40example.com?"))
        }
    }
}
