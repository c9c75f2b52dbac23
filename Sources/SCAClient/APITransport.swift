import Foundation
import SCACore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP layer: JSON in and out with the wire coders, problem answers turned into
/// ``SCAClientError``, `Retry-After` carried into the problem.
struct APITransport: Sendable {
    enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case delete = "DELETE"
        case patch = "PATCH"
    }

    let server: URL
    let session: URLSession

    /// Sends one request without a body and decodes the answer.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - path: relative to the server URL, without a leading slash.
    ///   - bearer: an access token for `Authorization: Bearer`.
    /// - Returns: the decoded 2xx body.
    /// - Throws: ``SCAClientError`` for a problem answer (with `retryAfter` from the header when
    ///   there is one) or an unexpected one; `URLError` when the server cannot be reached.
    func send<Answer: Decodable>(
        _ method: Method, _ path: String, bearer: String? = nil, as answer: Answer.Type = Answer.self
    ) async throws -> Answer {
        try await perform(try request(method, path, bearer: bearer))
    }

    /// Sends one request with a JSON body and decodes the answer.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - path: relative to the server URL, without a leading slash.
    ///   - body: encoded with the wire encoder.
    ///   - bearer: an access token for `Authorization: Bearer`.
    /// - Returns: the decoded 2xx body.
    /// - Throws: as ``send(_:_:bearer:as:)``, or an `EncodingError`.
    func send<Answer: Decodable>(
        _ method: Method, _ path: String, body: some Encodable, bearer: String? = nil,
        as answer: Answer.Type = Answer.self
    ) async throws -> Answer {
        var request = try request(method, path, bearer: bearer)
        request.httpBody = try WireJSON.encoder().encode(body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return try await perform(request)
    }

    /// Sends one request, with a JSON body when one is given, for its status alone: any 2xx
    /// answer, whatever its body (a `204` has none).
    /// - Throws: as ``send(_:_:bearer:as:)``, or an `EncodingError`.
    func sendForStatus(_ method: Method, _ path: String, body: (any Encodable)? = nil, bearer: String? = nil) async throws {
        var request = try request(method, path, bearer: bearer)
        if let body {
            request.httpBody = try WireJSON.encoder().encode(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw SCAClientError.unexpectedResponse(status: 0) }
        guard (200..<300).contains(http.statusCode) else {
            throw Self.error(status: http.statusCode, body: data, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
        }
    }

    private func request(_ method: Method, _ path: String, bearer: String?) throws -> URLRequest {
        var request = URLRequest(url: try url(path))
        request.httpMethod = method.rawValue
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        // Answers carry tokens: never from a cache.
        request.cachePolicy = .reloadIgnoringLocalCacheData
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        return request
    }

    /// Sends `request` and decodes a 2xx answer; any other status becomes the SDK's error.
    func perform<Answer: Decodable>(_ request: URLRequest) async throws -> Answer {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw SCAClientError.unexpectedResponse(status: 0) }
        guard (200..<300).contains(http.statusCode) else {
            throw Self.error(status: http.statusCode, body: data, retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
        }
        do {
            return try WireJSON.decoder().decode(Answer.self, from: data)
        } catch {
            throw SCAClientError.unexpectedResponse(status: http.statusCode)
        }
    }

    /// `server` + `path`, keeping any path prefix the server URL has (`https://bank.example/sca/`).
    /// Ids inside `path` are escaped by the caller with ``escape(_:)``.
    private func url(_ path: String) throws -> URL {
        var base = server.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: "\(base)/\(path)") else { throw URLError(.badURL) }
        return url
    }

    /// Characters an id may keep in a path: RFC 3986 unreserved, ASCII only. Every id the server
    /// makes is of these; anything else (`/`, `..`, `?`) is escaped, so an id can never reach
    /// another route with the user's bearer token.
    private static let idCharacters = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_~")

    /// `id` as one path segment.
    static func escape(_ id: String) -> String {
        let escaped = id.addingPercentEncoding(withAllowedCharacters: idCharacters) ?? ""
        // `.` is escaped too, but an empty segment would drop a level: keep one that cannot match.
        return escaped.isEmpty ? "%00" : escaped
    }

    /// The error for a non-2xx answer: its problem document when there is one.
    static func error(status: Int, body: Data, retryAfter header: String?) -> SCAClientError {
        guard var problem = try? WireJSON.decoder().decode(Problem.self, from: body) else {
            return .unexpectedResponse(status: status)
        }
        if let seconds = header.flatMap(Self.seconds(retryAfter:)) { problem.retryAfter = seconds }
        return SCAClientError(problem)
    }

    /// `Retry-After` as delay-seconds (RFC 9110 §10.2.3); the server never sends an HTTP date,
    /// and a date is ignored rather than misread.
    static func seconds(retryAfter header: String) -> Int? {
        Int(header.trimmingCharacters(in: .whitespaces)).map { max(0, $0) }
    }
}
