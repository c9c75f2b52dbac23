import SCACore

/// CIBA's `auth_req_id`: `<operation id>.<base64url scopes>.<MAC>` under the server key, so the
/// token endpoint needs nothing stored beyond the operation (on any instance), and a ping names
/// the same id the client was given.
package enum CIBARequestID {
    private static let macPurpose = "ciba-auth-req-id"

    package static func make(operationID: String, scopes: [String], box: SecretBox) -> String {
        let body = "\(operationID).\(Base64URL.encode(Array(scopes.joined(separator: " ").utf8)))"
        return "\(body).\(Base64URL.encode(box.mac(Array(body.utf8), purpose: macPurpose)))"
    }

    /// The operation id and scopes of an id made by ``make(operationID:scopes:box:)``; nil for
    /// anything else.
    package static func verified(_ id: String, box: SecretBox) -> (operationID: String, scopes: [String])? {
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let mac = Base64URL.decode(String(parts[2])),
            ConstantTime.equals(box.mac(Array("\(parts[0]).\(parts[1])".utf8), purpose: macPurpose), mac),
            let scopes = Base64URL.decode(String(parts[1]))
        else { return nil }
        return (String(parts[0]), String(decoding: scopes, as: UTF8.self).split(separator: " ").map(String.init))
    }
}
