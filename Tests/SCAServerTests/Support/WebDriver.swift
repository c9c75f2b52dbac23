import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A headless Chromium driven through chromedriver with the W3C WebDriver protocol over plain
/// HTTP: just the commands the page tests need.
final class WebDriver: @unchecked Sendable {
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"

    /// Why the browser tests cannot run here, or nil when they can.
    static var unavailableReason: String? {
        for path in [chromium, chromedriver] where !FileManager.default.isExecutableFile(atPath: path) {
            return "\(path) is missing (Debian packages chromium and chromium-driver)"
        }
        return nil
    }

    private let process: ChildProcess
    private let base: URL
    private let session: String

    /// Starts chromedriver on a free port and opens a browser session.
    /// - Parameter extraArguments: more Chromium switches (`--blink-settings=scriptEnabled=false`
    ///   for a browser without script).
    init(extraArguments: [String] = []) async throws {
        let port = try Self.freePort()
        process = try ChildProcess(
            URL(fileURLWithPath: Self.chromedriver), arguments: ["--port=\(port)"], standardOutput: .null,
            standardError: .null)
        base = URL(string: "http://127.0.0.1:\(port)")!
        // Wait for chromedriver to listen (it takes a moment to start).
        var lastError: (any Error)?
        var ready = false
        for _ in 0..<100 {
            do {
                _ = try await Self.request("GET", base.appendingPathComponent("status"), nil)
                ready = true
                break
            } catch {
                lastError = error
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        guard ready else {
            process.kill()
            throw WebDriverError(message: "chromedriver did not start: \(String(describing: lastError)), running: \(process.isRunning)")
        }
        let capabilities: [String: Any] = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": [
                        "binary": Self.chromium,
                        "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=420,900",
                            // The server listens on 127.0.0.1 only; Chromium would try ::1 for localhost.
                            "--host-resolver-rules=MAP localhost 127.0.0.1",
                        ] + extraArguments,
                    ],
                ]
            ]
        ]
        do {
            let created = try await Self.request("POST", base.appendingPathComponent("session"), capabilities)
            guard let value = created["value"] as? [String: Any], let id = value["sessionId"] as? String else {
                throw WebDriverError(message: "no session: \(created)")
            }
            session = id
        } catch {
            process.kill()
            throw error
        }
    }

    /// Ends the session and chromedriver.
    func quit() async {
        _ = try? await Self.request("DELETE", base.appendingPathComponent("session/\(session)"), nil)
        // chromedriver may outlive SIGTERM; this one is ours, by its pid.
        process.kill()
        _ = await process.termination()
    }

    func setWindow(width: Int, height: Int) async throws {
        try await command("POST", "window/rect", ["width": width, "height": height])
    }

    func open(_ url: String) async throws {
        try await command("POST", "url", ["url": url])
    }

    func currentURL() async throws -> String {
        try await command("GET", "url", nil) as? String ?? ""
    }

    /// The current URL once it starts with `prefix` (a navigation may still be under way), or
    /// whatever it is after five seconds.
    func waitForURL(prefix: String) async throws -> String {
        for _ in 0..<50 {
            let url = try await currentURL()
            if url.hasPrefix(prefix) { return url }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await currentURL()
    }

    func source() async throws -> String {
        try await command("GET", "source", nil) as? String ?? ""
    }

    /// The text the page shows.
    func text() async throws -> String {
        let body = try await element("body")
        return try await command("GET", "element/\(body)/text", nil) as? String ?? ""
    }

    /// Types `text` into the element `selector` (CSS).
    func type(_ text: String, into selector: String) async throws {
        let id = try await element(selector)
        try await command("POST", "element/\(id)/clear", [:])
        try await command("POST", "element/\(id)/value", ["text": text])
    }

    /// Clicks, then waits until a new document replaced the page (every click here submits a
    /// form or follows a link, and the answer may still be on its way when the click returns).
    func click(_ selector: String) async throws {
        let before = try await element("html")
        let id = try await element(selector)
        try await command("POST", "element/\(id)/click", [:])
        for _ in 0..<100 {
            if let now = try? await element("html"), now != before { return }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Runs `script` in the page (its `return` is the answer).
    @discardableResult
    func execute(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await command("POST", "execute/sync", ["script": script, "args": arguments])
    }

    /// Saves a PNG of the viewport to `file`.
    func screenshot(to file: URL) async throws {
        guard let encoded = try await command("GET", "screenshot", nil) as? String, let data = Data(base64Encoded: encoded) else {
            throw WebDriverError(message: "no screenshot")
        }
        try data.write(to: file)
    }

    private func element(_ selector: String) async throws -> String {
        let found = try await command("POST", "element", ["using": "css selector", "value": selector])
        guard let object = found as? [String: Any], let id = object.values.first as? String else {
            throw WebDriverError(message: "no element \(selector)")
        }
        return id
    }

    @discardableResult
    func command(_ method: String, _ path: String, _ body: [String: Any]?) async throws -> Any? {
        let answer = try await Self.request(method, base.appendingPathComponent("session/\(session)/\(path)"), body)
        if let value = answer["value"] as? [String: Any], let error = value["error"] as? String {
            throw WebDriverError(message: "\(path): \(error): \(value["message"] ?? "")")
        }
        return answer["value"]
    }

    private static func request(_ method: String, _ url: URL, _ body: [String: Any]?) async throws -> [String: Any] {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let answer = try await PlainHTTP.request(
            method, url, headers: data == nil ? [:] : ["Content-Type": "application/json"], body: data)
        return answer.json
    }

    /// A loopback port nobody listens on now.
    static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw WebDriverError(message: "socket failed") }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw WebDriverError(message: "bind failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

struct WebDriverError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
