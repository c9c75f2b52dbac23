import Foundation

/// A real TLS client outside Swift: Python's `ssl` module (OpenSSL), run as a child process. It
/// connects to 127.0.0.1, verifies the server's certificate against a CA file for `localhost`,
/// optionally presents a client certificate, sends one HTTP/1.1 request and reports what it saw.
/// Plain HTTP with `tls: false`, for the proxy-header tests.
struct TLSProbe {
    struct Request: Encodable {
        var port: Int
        var path = "/health/live"
        var tls = true
        /// `1.1`, `1.2` or `1.3` to allow that version only; nil for the client's default range.
        var version: String?
        /// An OpenSSL cipher string for TLS 1.2 and below.
        var ciphers: String?
        var ca: String?
        var cert: String?
        var key: String?
        var headers: [String: String] = [:]
    }

    struct Outcome: Decodable {
        /// `TLSv1.2`, `TLSv1.3`: nil when no TLS session was made.
        var version: String?
        var alpn: String?
        /// The server certificate's serial number in hex.
        var serial: String?
        /// The HTTP status: nil when the connection ended without an answer.
        var status: Int?
        var body: String?
        /// Why the connection failed, as Python tells it.
        var error: String?

        /// The problem `code` of the body, if it is one.
        var problemCode: String? {
            guard let body, let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else { return nil }
            return object["code"] as? String
        }
    }

    static let script = #"""
        import json, socket, ssl, sys, warnings
        warnings.simplefilter("ignore")
        a = json.loads(sys.argv[1])
        out = {}
        try:
            raw = socket.create_connection(("127.0.0.1", a["port"]), timeout=30)
            stream = raw
            if a["tls"]:
                ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
                ctx.load_verify_locations(a["ca"])
                names = {"1.1": ssl.TLSVersion.TLSv1_1, "1.2": ssl.TLSVersion.TLSv1_2, "1.3": ssl.TLSVersion.TLSv1_3}
                if a.get("version"):
                    ctx.minimum_version = ctx.maximum_version = names[a["version"]]
                    if a["version"] == "1.1":
                        ctx.set_ciphers("DEFAULT:@SECLEVEL=0")  # so the client itself offers TLS 1.1
                if a.get("ciphers"):
                    ctx.set_ciphers(a["ciphers"])
                if a.get("cert"):
                    ctx.load_cert_chain(a["cert"], a["key"])
                ctx.set_alpn_protocols(["h2", "http/1.1"])
                stream = ctx.wrap_socket(raw, server_hostname="localhost")
                out["version"] = stream.version()
                out["alpn"] = stream.selected_alpn_protocol()
                out["serial"] = stream.getpeercert()["serialNumber"]
            head = "GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" % a["path"]
            head += "".join("%s: %s\r\n" % item for item in a["headers"].items())
            stream.sendall((head + "\r\n").encode())
            data = b""
            while True:
                chunk = stream.recv(65536)
                if not chunk:
                    break
                data += chunk
            stream.close()
            if data:
                head, _, body = data.partition(b"\r\n\r\n")
                out["status"] = int(head.split(b" ")[1])
                out["body"] = body.decode("utf-8", "replace")
            else:
                out["error"] = "the connection closed without an answer"
        except Exception as e:
            out["error"] = "%s: %s" % (type(e).__name__, e)
        print(json.dumps(out))
        """#

    /// Runs one request; never throws for what the server did (that is in the outcome).
    static func run(_ request: Request) async throws -> Outcome {
        let argument = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        let run = try await ChildProcess.run(
            FAPIScriptTests.python, arguments: ["-c", script, argument], killAfter: .seconds(60))
        guard run.status == 0, let line = run.outputText.split(separator: "\n").last else {
            throw ChildProcess.Failure(description: "the TLS probe failed (\(run.status)): \(run.errorText)")
        }
        return try JSONDecoder().decode(Outcome.self, from: Data(line.utf8))
    }
}
