import Crypto
import Foundation
import SCACore
import SCAStorage

/// Authenticates a request by the bound device itself, not by a login token (the user may be
/// signed out): `SCA-Device-Id`, `SCA-Device-Nonce` (issued by `POST /v1/operations/nonce`)
/// and `SCA-Device-Signature`, the possession key's signature over
/// ``DeviceRequestSignature/payload(deviceID:method:path:nonce:body:)``.
///
/// A nonce is stateless (its expiry, 16 random bytes and a MAC under the server key, so every
/// instance sharing the key accepts it) and burnt on first use, so a signed request is good for
/// one request, once, within ``nonceLifetime``.
struct DeviceRequestAuthenticator: EngineService, Sendable {
    let context: EngineContext

    /// Seconds a nonce stays usable.
    static let nonceLifetime = 120
    static let deviceHeader = "SCA-Device-Id"
    static let nonceHeader = "SCA-Device-Nonce"
    static let signatureHeader = "SCA-Device-Signature"
    private static let macPurpose = "device-request-nonce"

    /// A fresh nonce for one device-signed request.
    func issueNonce() -> DeviceNonceResponse {
        let expiry = UInt64(runtime.now().timeIntervalSince1970.rounded(.up)) + UInt64(Self.nonceLifetime)
        var body = withUnsafeBytes(of: expiry.bigEndian) { Array($0) }
        body += runtime.random.bytes(16)
        return DeviceNonceResponse(nonce: Base64URL.encode(body + box.mac(body, purpose: Self.macPurpose)), expiresIn: Self.nonceLifetime)
    }

    /// The active device that signed this request.
    /// - Throws: 401 `device.request_invalid` for a missing, malformed, expired, forged or
    ///   replayed nonce or signature, or an unknown device; 403 `device.blocked` /
    ///   `device.removed` for a device that signed rightly but may no longer act.
    func authenticate(
        deviceID: String?, nonce: String?, signature: String?, method: String, path: String, body: [UInt8]
    ) async throws -> DeviceRecord {
        guard let deviceID, let nonce, let signature else {
            throw Problem.deviceRequestInvalid(
                "\(Self.deviceHeader), \(Self.nonceHeader) and \(Self.signatureHeader) are required")
        }
        guard InputRules.isWellFormedID(deviceID, prefix: "dev"),
            let signatureBytes = Base64URL.decode(signature), signatureBytes.count == 64
        else { throw Problem.deviceRequestInvalid("the device id or signature is malformed") }
        guard let expiry = verifiedExpiry(of: nonce) else { throw Problem.deviceRequestInvalid("the nonce is not one this server issued") }
        guard runtime.now() < expiry else { throw Problem.deviceRequestInvalid("the nonce has expired; ask for a new one") }
        let payload = DeviceRequestSignature.payload(deviceID: deviceID, method: method, path: path, nonce: nonce, body: body)
        guard let device = try await store.device(id: deviceID),
            DeviceSignature.isValid(signature: signatureBytes, over: payload, publicKey: device.possessionKey)
        else {
            await audit.record(.deviceRequestRefused, outcome: "bad_signature", details: ["path": path])
            throw Problem.deviceRequestInvalid("the signature does not verify")
        }
        // One request per nonce, on every instance: the nonce is burnt until it expires anyway.
        let burn = Array(SHA256.hash(data: Array("device-request|\(nonce)".utf8)))
        guard try await store.markSignatureUsed(burn, expiresAt: expiry, now: runtime.now()) else {
            await audit.record(.deviceRequestRefused, outcome: "replayed", userID: device.userID, deviceID: device.id, details: ["path": path])
            throw Problem.deviceRequestInvalid("this nonce was used already")
        }
        guard device.status == .active else {
            await audit.record(
                .deviceRequestRefused, outcome: device.status.rawValue, userID: device.userID, deviceID: device.id,
                details: ["path": path])
            throw Problem.deviceUnusable(device.status)
        }
        return device
    }

    private func verifiedExpiry(of nonce: String) -> Date? {
        guard let bytes = Base64URL.decode(nonce), bytes.count == 8 + 16 + 32 else { return nil }
        let body = Array(bytes.prefix(24))
        guard ConstantTime.equals(box.mac(body, purpose: Self.macPurpose), Array(bytes.suffix(32))) else { return nil }
        let seconds = body.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
