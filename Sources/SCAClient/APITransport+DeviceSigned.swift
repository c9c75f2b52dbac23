import Foundation
import SCACore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Decoupled operations: requests the bound device signs itself.
extension APITransport {
    /// Sends one request authenticated by the device: a fresh nonce from
    /// `POST /v1/operations/nonce`, then `SCA-Device-Id`, `SCA-Device-Nonce` and
    /// `SCA-Device-Signature` over ``DeviceRequestSignature/payload(deviceID:method:path:nonce:body:)``.
    ///
    /// - Parameters:
    ///   - path: relative to the server URL, without a leading slash.
    ///   - query: appended to the URL, not signed (`wait=25`).
    ///   - timeout: for a long poll, longer than the server holds it.
    ///   - sign: signs the payload with the possession key.
    func sendDeviceSigned<Answer: Decodable>(
        _ method: Method, _ path: String, query: String? = nil, body: Data? = nil, deviceID: String,
        timeout: TimeInterval? = nil, sign: @Sendable ([UInt8]) async throws -> [UInt8]
    ) async throws -> Answer {
        let nonce: DeviceNonceResponse = try await send(.post, "v1/operations/nonce")
        var base = server.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: "\(base)/\(path)\(query.map { "?\($0)" } ?? "")") else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let timeout { request.timeoutInterval = timeout }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        // The server checks the path as it receives it: the URL's path, percent-encoded as sent.
        let signedPath = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
        let payload = DeviceRequestSignature.payload(
            deviceID: deviceID, method: method.rawValue, path: signedPath, nonce: nonce.nonce, body: Array(body ?? Data()))
        request.setValue(deviceID, forHTTPHeaderField: "SCA-Device-Id")
        request.setValue(nonce.nonce, forHTTPHeaderField: "SCA-Device-Nonce")
        request.setValue(Base64URL.encode(try await sign(payload)), forHTTPHeaderField: "SCA-Device-Signature")
        return try await perform(request)
    }
}
