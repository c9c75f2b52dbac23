import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SCACore
import Testing

extension APIClient {
    /// A request with `Authorization: Bearer <bearer>` (none when nil): an admin key, or an
    /// operator's access token.
    @discardableResult
    func send(_ method: HTTPRequest.Method, _ path: String, bearer: String?, body: Data? = nil) async throws -> APIResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
        return APIResponse(status: Int(response.status.code), headers: response.headers, body: Data(buffer: response.body))
    }

    /// Creates a user with roles through the admin API (bootstrap key); returns its id.
    func createUser(_ email: String, roles: [String]) async throws -> String {
        let response = try await post(
            "/admin/v1/users", CreateUserRequest(email: email, password: "correct horse battery", roles: roles), admin: true)
        #expect(response.status == 201)
        return try response.decode(CreatedUserResponse.self).userId
    }
}

/// The claims of a compact JWS, decoded without verification (the tests read what was signed).
func jwtClaims(_ token: String) throws -> [String: Any] {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    let payload = try #require(parts.count == 3 ? Base64URL.decode(String(parts[1])) : nil)
    return try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
}
