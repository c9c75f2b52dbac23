import Foundation
import JWTKit
import SCACore
import SCAEngine

/// A signed authorization request (RFC 9101, JAR), pushed to PAR in `request`: the parameters
/// of the authorization request as claims of a JWT the client signs with a registered key, so
/// that nothing between the client's back end and this server can change what is asked. Its
/// parameters are the only ones that count (RFC 9101 §6.3).
///
/// What is checked, beside the signature (with the algorithm and key rules of a client
/// assertion, ``ClientKeys``):
/// - `typ`, when given, is `oauth-authz-req+jwt`, so a token made for another purpose (an
///   assertion, a DPoP proof) is never taken for a request;
/// - `iss` and `client_id` are the client's id, and `aud` names this server's issuer;
/// - `nbf` and `exp` are both present, `nbf` at most an hour ago and `exp` at most an hour
///   after it (the FAPI 2.0 Message Signing bounds), and the request is valid now.
struct RequestObject: Sendable {
    static let mediaType = "oauth-authz-req+jwt"
    static let maximumLength = 16_384
    /// The longest a request object may be valid, and the oldest its `nbf` may be.
    static let maximumLifetime: TimeInterval = 3_600
    /// Claims about the object itself, not parameters of the request.
    static let envelope: Set<String> = ["iss", "aud", "exp", "nbf", "iat", "jti"]

    /// The authorization request's parameters, as text: `authorization_details` (an array in
    /// the object) back to its JSON, numbers (`max_age`) as digits.
    let parameters: [String: String]

    /// Checks `token` for `clientID`, held to `profile`, with its registered `keys`.
    /// - Throws: ``BrokenRule`` naming the first rule broken.
    static func verify(
        _ token: String, clientID: String, profile: ClientProfile, keys: ClientKeys, issuer: String, now: Date
    ) async throws(BrokenRule) -> RequestObject {
        guard token.utf8.count <= maximumLength, let header = CompactJWS.decode(Header.self, segment: 0, of: token) else {
            throw BrokenRule("request is not a signed JWT")
        }
        guard header.typ == nil || header.typ?.lowercased() == mediaType || header.typ?.lowercased() == "application/" + mediaType
        else { throw BrokenRule("request's typ must be \(mediaType)") }
        guard header.crit == nil else { throw BrokenRule("request names critical header parameters this server does not know") }
        let claims = try await keys.verify(
            token, algorithm: header.alg, keyID: header.kid, profile: profile, as: Claims.self, named: "request")
        let values = claims.values
        guard values["iss"] == .string(clientID), values["client_id"] == .string(clientID) else {
            throw BrokenRule("request's iss and client_id must both be the client_id")
        }
        let audiences: [JSONValue] = if case .array(let list)? = values["aud"] { list } else { values["aud"].map { [$0] } ?? [] }
        guard audiences.contains(.string(issuer)) else { throw BrokenRule("request's aud must name the issuer, \(issuer)") }
        guard case .number(let nbfSeconds)? = values["nbf"], case .number(let expSeconds)? = values["exp"] else {
            throw BrokenRule("request must have nbf and exp")
        }
        let (notBefore, expiry) = (Date(timeIntervalSince1970: nbfSeconds), Date(timeIntervalSince1970: expSeconds))
        guard notBefore <= now.addingTimeInterval(ClientAssertion.leeway), notBefore >= now.addingTimeInterval(-maximumLifetime) else {
            throw BrokenRule("request's nbf must be within the last hour")
        }
        guard expiry > now, expiry.timeIntervalSince(notBefore) <= maximumLifetime else {
            throw BrokenRule("request must be valid now, and exp at most an hour after nbf")
        }
        var parameters: [String: String] = [:]
        for (name, value) in values where !envelope.contains(name) {
            guard name != "request", name != "request_uri" else { throw BrokenRule("request cannot hold \(name)") }
            switch value {
            case .string(let text): parameters[name] = text
            case .number(let number) where number == number.rounded() && abs(number) < 1e15: parameters[name] = String(Int64(number))
            case .array, .object:
                guard name == "authorization_details" else { throw BrokenRule("request's \(name) must be a string") }
                parameters[name] = String(decoding: JCS.canonicalize(value), as: UTF8.self)
            default: throw BrokenRule("request's \(name) must be a string")
            }
        }
        return RequestObject(parameters: parameters)
    }

    private struct Header: Decodable {
        var alg: String
        var kid: String?
        var typ: String?
        var crit: [String]?
    }

    /// Every claim as it came: they are read and checked here, against the injected clock.
    struct Claims: JWTPayload {
        var values: [String: JSONValue]

        init(from decoder: any Decoder) throws {
            values = try [String: JSONValue](from: decoder)
        }

        func encode(to encoder: any Encoder) throws {
            try values.encode(to: encoder)
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
