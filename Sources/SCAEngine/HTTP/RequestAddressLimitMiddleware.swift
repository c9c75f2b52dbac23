import Hummingbird
import SCACore
import Synchronization

/// Behind a reverse proxy (`trustedProxyHeader`) every connection comes from the proxy, so the
/// per-address cap applies here instead, to requests: at most `limit` requests of one
/// forwarded client address are served at once; one more is answered `429 rate.limited`. The
/// health endpoints are never counted nor refused, so the proxy's and the orchestrator's
/// probes keep answering.
package struct RequestAddressLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    final class InFlight: Sendable {
        private let counts = Mutex<[String: Int]>([:])

        func acquire(_ address: String, limit: Int) -> Bool {
            counts.withLock { counts in
                guard counts[address, default: 0] < limit else { return false }
                counts[address, default: 0] += 1
                return true
            }
        }

        func release(_ address: String) {
            counts.withLock { counts in
                let left = counts[address, default: 1] - 1
                counts[address] = left > 0 ? left : nil
            }
        }
    }

    let limit: Int

    package init(limit: Int) {
        self.limit = limit
    }

    let inFlight = InFlight()

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !request.uri.path.hasPrefix("/health/"), let address = RequestInfo.current?.clientAddress else {
            return try await next(request, context)
        }
        guard inFlight.acquire(address, limit: limit) else { throw Problem.tooManyRequestsFromAddress }
        defer { inFlight.release(address) }
        return try await next(request, context)
    }
}
