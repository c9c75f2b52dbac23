import JWTKit
import SCACore
import SCAStorage

/// An access token's claims plus the profile claims the configuration's `tokenClaims` names,
/// side by side at the top level of the JWT. Those names are never a claim of
/// ``AccessTokenClaims`` (`UserAttributes.reservedClaimNames`, checked at start-up), so the
/// two never overlap; a token without profile claims encodes exactly as ``AccessTokenClaims``.
struct ProfiledAccessClaims: JWTPayload {
    var claims: AccessTokenClaims
    /// Claim name to value; empty when `tokenClaims` is empty (the default).
    var profile: [String: String]

    init(claims: AccessTokenClaims, profile: [String: String]) {
        self.claims = claims
        self.profile = profile
    }

    func encode(to encoder: any Encoder) throws {
        try claims.encode(to: encoder)
        var container = encoder.container(keyedBy: ClaimName.self)
        for (name, value) in profile.sorted(by: { $0.key < $1.key }) {
            try container.encode(value, forKey: ClaimName(name))
        }
    }

    init(from decoder: any Decoder) throws {
        claims = try AccessTokenClaims(from: decoder)
        let container = try decoder.container(keyedBy: ClaimName.self)
        var profile: [String: String] = [:]
        for key in container.allKeys where AccessTokenClaims.CodingKeys(stringValue: key.stringValue) == nil {
            if let value = try? container.decode(String.self, forKey: key) { profile[key.stringValue] = value }
        }
        self.profile = profile
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}

    /// The profile claims `names` asks for, from what the user told: `name`, `phone`, `email`
    /// or a custom attribute; a claim the user has no value for is left out.
    static func profile(of user: UserRecord, names: [String]) -> [String: String] {
        var claims: [String: String] = [:]
        for name in names {
            let value: String? =
                switch name {
                case "name": user.profile.name
                case "phone": user.phone
                case "email": user.email
                default: user.profile.attributes[name]
                }
            if let value { claims[name] = value }
        }
        return claims
    }
}
