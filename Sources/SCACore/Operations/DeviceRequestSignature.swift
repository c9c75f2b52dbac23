import Crypto

/// What a bound device signs to authenticate a request by itself (the phone's side of
/// decoupled operations, where the user may be signed out): the request, a nonce the server
/// issued, and the body.
package enum DeviceRequestSignature {
    /// UTF-8 of "sca-v1|request|<deviceId>|<METHOD>|<path>|<nonce>|<base64url SHA-256 of the body>".
    ///
    /// `path` is the request path without its query; the body digest is over the exact bytes
    /// sent (an empty body has the digest of no bytes). Signed with the device's possession key.
    package static func payload(deviceID: String, method: String, path: String, nonce: String, body: [UInt8]) -> [UInt8] {
        let digest = Base64URL.encode(Array(SHA256.hash(data: body)))
        let fields = ["sca-v1", "request", deviceID, method.uppercased(), path, nonce, digest]
        return Array(fields.joined(separator: "|").utf8)
    }
}
