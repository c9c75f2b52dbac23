import Foundation
import SCACore

/// CIBA ping mode: what an operation of a client in ping mode keeps, sealed under the server
/// key, to tell the client its request has an answer: the bearer token the client chose for its
/// notification endpoint, and the `auth_req_id` to name there.
package struct CIBANotification: Codable, Sendable, Equatable {
    package var token: String
    package var authReqID: String

    private static let sealingContext = "ciba-notification"

    package init(token: String, authReqID: String) {
        self.token = token
        self.authReqID = authReqID
    }

    package func sealed(with box: SecretBox) throws -> [UInt8] {
        try box.seal(Array(try JSONEncoder().encode(self)), context: Self.sealingContext)
    }

    package static func opened(_ sealed: [UInt8], with box: SecretBox) throws -> CIBANotification {
        try JSONDecoder().decode(CIBANotification.self, from: Data(box.open(sealed, context: sealingContext)))
    }

    /// The ping's body (CIBA Core 10.2): the request id alone.
    package var pingBody: String {
        // base64url and dots: nothing in an auth_req_id needs escaping in JSON.
        #"{"auth_req_id":"\#(authReqID)"}"#
    }
}
