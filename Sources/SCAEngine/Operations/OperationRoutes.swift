import Foundation
import HTTPTypes
import Hummingbird
import SCACore
import SCAStorage

/// `/v1/operations`. The backend's side (create, read, cancel) is authenticated by
/// an admin credential (`Authorization: Bearer`, scope `operations:write` to create and cancel,
/// `operations:read` to read) or a partner client's own credentials (`Authorization: Basic`,
/// `client_secret_basic`). The phone's side (nonce, pending, approve, reject) is authenticated
/// by a request the bound device signs (``DeviceRequestAuthenticator``).
struct OperationRoutes<Context: RequestContext> {
    let operations: OperationService
    let devices: DeviceRequestAuthenticator
    let access: AdminAccess
    /// Checks a partner client's id and secret (HTTP Basic) and answers the client's id; throws
    /// `Problem` 401, or 429 for a throttled client. Partner clients are registered and throttled
    /// by partner access, a module above this one; the composition root passes its check in.
    let authenticateClient: @Sendable (_ clientID: String, _ secret: String) async throws -> String
    let maxBodySize: Int
    /// The longest `wait` of `GET /v1/operations/pending`, in seconds.
    static var maximumWait: Int { 25 }

    func register(on router: some RouterMethods<Context>) {
        let group = router.group("v1/operations")
        group.post { request, _ in
            try await asCaller(of: request, scope: .operationsWrite) { caller in
                let body = try await request.decodeJSON(CreateOperationRequest.self, limit: maxBodySize)
                return try Response.json(try await operations.create(body, by: caller), status: .created)
            }
        }
        group.post("nonce") { _, _ in
            try Response.json(devices.issueNonce())
        }
        group.get("pending") { request, _ in
            let device = try await signedBy(request, body: [])
            let text = request.uri.queryParameters.get("wait") ?? "0"
            guard let wait = Int(text), (0...Self.maximumWait).contains(wait) else {
                throw Problem.invalidRequest("wait must be 0 to \(Self.maximumWait) seconds")
            }
            return try Response.json(try await operations.waitForPending(for: device, wait: wait))
        }
        group.get(":id") { request, context in
            try await asCaller(of: request, scope: .operationsRead) { caller in
                try Response.json(try await operations.get(context.parameters.require("id"), by: caller))
            }
        }
        group.delete(":id") { request, context in
            try await asCaller(of: request, scope: .operationsWrite) { caller in
                try Response.json(try await operations.cancel(context.parameters.require("id"), by: caller))
            }
        }
        group.post(":id/approve") { request, context in
            let (device, body) = try await signedJSON(request, ApproveOperationRequest.self)
            return try Response.json(try await operations.approve(context.parameters.require("id"), by: device, body))
        }
        group.post(":id/reject") { request, context in
            let (device, body) = try await signedJSON(request, RejectOperationRequest.self)
            return try Response.json(try await operations.reject(context.parameters.require("id"), by: device, reason: body.reason))
        }
    }

    // MARK: Backend callers

    /// Authenticates the backend caller of `request`, then runs `body` as that caller, with the
    /// audit trail naming it (the admin key's actor, or `client:<id>`).
    /// - Throws: 401 `auth.unauthorized` without a valid credential; 403 for an admin
    ///   credential without `scope`; 429 for a partner client throttled after failed secrets.
    private func asCaller(
        of request: Request, scope: AdminScope, _ body: (OperationCaller) async throws -> Response
    ) async throws -> Response {
        let header = request.headers[.authorization]
        if let presented = BearerCredentials.token(in: header) {
            let principal = try await access.authenticate(presented)
            try await AuditTrail.$actor.withValue(principal.auditActor) {
                try await access.authorize(principal, for: scope)
            }
            return try await AuditTrail.$actor.withValue(principal.auditActor) { try await body(.admin) }
        }
        // A confidential client's id and secret: a public client, which has no secret, never passes.
        guard case .credentials(let credentials) = BasicCredentials.presented(in: header) else { throw Problem.unauthorized }
        let clientID = try await authenticateClient(credentials.user, credentials.password)
        return try await AuditTrail.$actor.withValue("client:\(clientID)") { try await body(.partner(clientID: clientID)) }
    }

    // MARK: Device-signed requests

    private func signedBy(_ request: Request, body: [UInt8]) async throws -> DeviceRecord {
        try await devices.authenticate(
            deviceID: request.headers[HTTPField.Name(DeviceRequestAuthenticator.deviceHeader)!],
            nonce: request.headers[HTTPField.Name(DeviceRequestAuthenticator.nonceHeader)!],
            signature: request.headers[HTTPField.Name(DeviceRequestAuthenticator.signatureHeader)!],
            method: request.method.rawValue, path: request.uri.path, body: body)
    }

    /// The device that signed the request, then its JSON body (the exact bytes it signed).
    private func signedJSON<Value: Decodable>(_ request: Request, _ type: Value.Type) async throws -> (DeviceRecord, Value) {
        let buffer = try await request.collectJSON(limit: maxBodySize)
        let device = try await signedBy(request, body: Array(buffer.readableBytesView))
        return (device, try Request.decodeJSON(Value.self, from: buffer))
    }
}
