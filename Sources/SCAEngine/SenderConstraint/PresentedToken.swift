import Foundation
import HTTPTypes
import Hummingbird

/// An access token as a request presents it: `Authorization: Bearer <token>`, or
/// `Authorization: DPoP <token>` with its proof in the `DPoP` header (RFC 9449 §7.1), and what
/// the proof must name: the request's method and URL.
package struct PresentedToken: Sendable {
    package var authorization: String?
    package var proof: String?
    package var method: String
    /// The request's URL without query: the server's public base URL and the path.
    package var url: String

    package init(authorization: String?, proof: String? = nil, method: String, url: String) {
        self.authorization = authorization
        self.proof = proof
        self.method = method
        self.url = url
    }

    /// What `request` presents, its URL under `baseURL` (where partners reach the server).
    package init(_ request: Request, baseURL: String) {
        self.init(
            authorization: request.headers[.authorization], proof: request.headers[Self.proofField],
            method: request.method.rawValue, url: baseURL + request.uri.path)
    }

    /// A call made inside the server (the demo partner's): a bearer token or none, no proof.
    package static func inProcess(authorization: String? = nil) -> PresentedToken {
        PresentedToken(authorization: authorization, method: "", url: "")
    }

    static let proofField = HTTPField.Name(DPoPProof.headerName)!

    /// The token and whether it came as `DPoP` rather than `Bearer`; nil without one.
    var token: (value: String, isDPoP: Bool)? {
        if let token = BearerCredentials.token(in: authorization) { return (token, false) }
        return BearerCredentials.token(in: authorization, scheme: "dpop").map { ($0, true) }
    }
}
