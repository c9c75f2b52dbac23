import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SCACore

/// The few admin calls the harness needs to set up its clients (`/admin/v1`, bearer admin key):
/// the same path against an in-process server and a remote one, so setup never reaches into a
/// server's internals.
struct AdminAPI: Sendable {
    let server: URL
    let adminKey: String
    let session: URLSession

    /// Creates a user and returns its id.
    func createUser(_ request: CreateUserRequest) async throws -> String {
        let created: CreatedUserResponse = try await send("admin/v1/users", body: request)
        return created.userId
    }

    /// Enrolls a TOTP seed for the user and returns it as an authenticator app would hold it.
    func enrollTOTP(userID: String) async throws -> TOTP {
        let enrollment: TOTPEnrollmentResponse = try await send("admin/v1/users/\(userID)/totp", body: nil as String?)
        guard let totp = TOTP.parse(enrollment.otpauthUri) else {
            throw BenchError("the server's otpauth URI does not parse: \(enrollment.otpauthUri)")
        }
        return totp
    }

    /// A fresh activation code for one more device of the user.
    func issueActivationCode(userID: String) async throws -> String {
        let issued: ActivationCodeResponse = try await send("admin/v1/users/\(userID)/activations", body: nil as String?)
        return issued.activationCode
    }

    /// POSTs `body` (or nothing) as JSON and decodes a 2xx answer.
    private func send<Body: Encodable, Answer: Decodable>(_ path: String, body: Body?) async throws -> Answer {
        var request = URLRequest(url: server.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("Bearer \(adminKey)", forHTTPHeaderField: "Authorization")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try WireJSON.encoder().encode(body)
        }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request, delegate: AuthChallengeRefuser())
        } catch let error as URLError where error.code == .userCancelledAuthentication || error.code == .cancelled {
            throw BenchError("admin call \(path) answered 401: check --admin-key / SCA_ADMIN_KEY")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            // A problem document says why (admin API off, wrong key, invalid e-mail…).
            let detail = (try? WireJSON.decoder().decode(Problem.self, from: data)).map(\.description)
            throw BenchError("admin call \(path) answered \(status)\(detail.map { " (\($0))" } ?? "")")
        }
        return try WireJSON.decoder().decode(Answer.self, from: data)
    }
}
