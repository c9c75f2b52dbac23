import Hummingbird
import SCACore

/// `/v1/activations` and `/v1/devices`: device binding and the user's own devices.
struct DeviceRoutes<Context: RequestContext> {
    let devices: DeviceService
    let account: AccountService
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        router.post("v1/activations") { request, _ in
            try Response.json(
                try await account.issueActivationCode(authorization: request.headers[.authorization]), status: .created)
        }
        router.post("v1/devices") { request, _ in
            let body = try await request.decodeJSON(RegisterDeviceRequest.self, limit: maxBodySize)
            return try Response.json(try await devices.register(body), status: .created)
        }
        router.get("v1/devices") { request, _ in
            try Response.json(try await account.devices(authorization: request.headers[.authorization]))
        }
        router.get("v1/devices/:id/status") { _, context in
            try Response.json(try await devices.status(of: context.parameters.require("id")))
        }
        router.patch("v1/devices/:id") { request, context in
            let body = try await request.decodeJSON(RenameDeviceRequest.self, limit: maxBodySize)
            return try Response.json(
                try await account.renameDevice(context.parameters.require("id"), body, authorization: request.headers[.authorization]))
        }
        router.delete("v1/devices/:id") { request, context in
            try Response.json(
                try await account.removeDevice(context.parameters.require("id"), authorization: request.headers[.authorization]))
        }
    }
}
