import Hummingbird
import SCACore

/// `/v1/me/recovery-sheet` and `/v1/recovery`: the recovery sheet, and binding a new device
/// with it after a lost phone.
struct RecoveryRoutes<Context: RequestContext> {
    let recovery: RecoveryService
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        router.post("v1/me/recovery-sheet") { request, _ in
            try Response.json(try await recovery.issueSheet(authorization: request.headers[.authorization]), status: .created)
        }
        router.get("v1/me/recovery-sheet") { request, _ in
            try Response.json(try await recovery.sheetStatus(authorization: request.headers[.authorization]))
        }
        router.post("v1/recovery") { request, _ in
            let body = try await request.decodeJSON(RecoveryRequest.self, limit: maxBodySize)
            return try Response.json(try await recovery.recover(body), status: .created)
        }
    }
}
