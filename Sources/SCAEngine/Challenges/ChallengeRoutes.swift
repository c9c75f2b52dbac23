import Hummingbird
import SCACore

/// `/v1/challenges`: the three phases over HTTP. Each route decodes, calls one service
/// method and encodes.
struct ChallengeRoutes<Context: RequestContext> {
    let challenges: ChallengeService
    let maxBodySize: Int

    func register(on router: some RouterMethods<Context>) {
        let group = router.group("v1/challenges")
        group.post { request, _ in
            let body = try await request.decodeJSON(CreateChallengeRequest.self, limit: maxBodySize)
            return try Response.json(
                try await challenges.create(body, authorization: request.headers[.authorization]), status: .created)
        }
        group.get(":id") { _, context in
            try Response.json(try await challenges.get(context.parameters.require("id")))
        }
        group.delete(":id") { _, context in
            try Response.json(try await challenges.cancel(context.parameters.require("id")))
        }
        group.post(":id/proofs") { request, context in
            let proof = try await request.decodeJSON(ProofRequest.self, limit: maxBodySize)
            return try Response.json(try await challenges.submit(proof, to: context.parameters.require("id")))
        }
        group.post(":id/otp") { request, context in
            let body = try await request.decodeJSON(SendCodeRequest.self, limit: maxBodySize)
            return try Response.json(
                try await challenges.sendCode(body, for: context.parameters.require("id")), status: .accepted)
        }
    }
}
