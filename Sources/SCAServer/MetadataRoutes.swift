import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCAStorage

/// Keys, the API description and health.
struct MetadataRoutes<Context: RequestContext> {
    let tokens: TokenService
    let store: any SCAStore

    struct Health: Encodable { var status: String }

    func register(on router: some RouterMethods<Context>) {
        router.get(".well-known/jwks.json") { _, _ in
            var response = try Response.json(tokens.jwks)
            // A rotated key is published a window longer than this before it signs, so a cache
            // this old still holds it (docs/operations.md, Signing-key rotation).
            response.headers[.cacheControl] = "public, max-age=\(SigningKeySchedule.jwksMaxAge)"
            return response
        }
        router.get("openapi.yaml") { _, _ in
            guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
                let data = FileManager.default.contents(atPath: url.path)
            else { throw Problem.notFound }
            return Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
        router.get("health/live") { _, _ in
            try Response.json(Health(status: "ok"))
        }
        router.get("health/ready") { _, _ in
            do {
                try await store.checkHealth()
                return try Response.json(Health(status: "ok"))
            } catch {
                return Response.problem(Problem(status: 503, code: .serverBusy, title: "Database unreachable"))
            }
        }
    }
}
