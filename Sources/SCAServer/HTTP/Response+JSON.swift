import Foundation
import Hummingbird
import SCACore

extension Response {
    /// A JSON response with the wire encoder (RFC 3339 dates).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try WireJSON.sharedEncoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// An RFC 9457 problem response, with `Retry-After` where the problem has one.
    static func problem(_ problem: Problem) -> Response {
        var headers: HTTPFields = [.contentType: "application/problem+json", .cacheControl: "no-store"]
        if let retryAfter = problem.retryAfter { headers[.retryAfter] = String(retryAfter) }
        let data = (try? WireJSON.sharedEncoder.encode(problem)) ?? Data()
        return Response(
            status: HTTPResponse.Status(code: problem.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
