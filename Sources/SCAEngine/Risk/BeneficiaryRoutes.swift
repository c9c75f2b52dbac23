import Hummingbird
import SCACore

/// `/v1/me/beneficiaries`: the user's trusted beneficiaries (RTS art. 13).
struct BeneficiaryRoutes<Context: RequestContext> {
    let beneficiaries: BeneficiaryService
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        router.post("v1/me/beneficiaries") { request, _ in
            let body = try await request.decodeJSON(AddBeneficiaryRequest.self, limit: maxBodySize)
            return try Response.json(
                try await beneficiaries.add(body, authorization: request.headers[.authorization]), status: .created)
        }
        router.get("v1/me/beneficiaries") { request, _ in
            try Response.json(try await beneficiaries.list(authorization: request.headers[.authorization]))
        }
        router.delete("v1/me/beneficiaries/:id") { request, context in
            try Response.json(
                try await beneficiaries.remove(context.parameters.require("id"), authorization: request.headers[.authorization]))
        }
    }
}
