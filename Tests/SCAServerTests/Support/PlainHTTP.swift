import Foundation

/// HTTP/1.1 over a bare loopback socket (``RawConnection``), one request per connection: what a
/// partner written with nothing of ours would send, and how the tests talk to chromedriver
/// (FoundationNetworking's URLSession fails on some local answers).
enum PlainHTTP {
    struct Answer: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }
    }

    static func request(
        _ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: Duration = .seconds(60)
    ) async throws -> Answer {
        guard url.host == "127.0.0.1" || url.host == "localhost", let port = url.port else {
            throw RawConnection.Failure(description: "PlainHTTP talks to loopback ports only: \(url)")
        }
        let connection = try RawConnection(port: port)
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(url.host!):\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body?.count ?? 0)\r\n\r\n"
        try connection.send(head + String(decoding: body ?? Data(), as: UTF8.self))
        // Some servers (chromedriver) keep the connection open: stop once the answer is whole.
        let outcome = await connection.read(limit: timeout, until: isComplete)
        return try parse(outcome.received)
    }

    /// Whether `text` holds a whole answer: its head and `Content-Length` bytes, or the last chunk.
    @Sendable private static func isComplete(_ text: String) -> Bool {
        guard let split = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<split.lowerBound].lowercased()
        let body = text[split.upperBound...]
        if head.contains("transfer-encoding: chunked") { return body.hasSuffix("0\r\n\r\n") }
        for line in head.components(separatedBy: "\r\n") where line.hasPrefix("content-length:") {
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
            return body.utf8.count >= length
        }
        return false
    }

    private static func parse(_ data: Data) throws -> Answer {
        let separator = Data("\r\n\r\n".utf8)
        guard let split = data.range(of: separator) else { throw RawConnection.Failure(description: "no HTTP answer") }
        let head = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[split.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunked(body) }
        return Answer(status: status, headers: headers, body: body)
    }

    private static func dechunked(_ data: Data) -> Data {
        var result = Data()
        var rest = data[...]
        let crlf = Data("\r\n".utf8)
        while let line = rest.range(of: crlf) {
            let size = Int(String(decoding: rest[..<line.lowerBound], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) ?? 0
            if size == 0 { break }
            let start = line.upperBound
            let end = rest.index(start, offsetBy: size)
            result.append(rest[start..<end])
            rest = rest[rest.index(end, offsetBy: 2)...]
        }
        return result
    }
}
