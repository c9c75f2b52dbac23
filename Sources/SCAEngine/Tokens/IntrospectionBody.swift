import SCACore

/// The introspection answer on the wire: ``IntrospectResponse``'s fields, and its profile
/// claims beside them at the top level, as the token carries them.
struct IntrospectionBody: Encodable {
    var response: IntrospectResponse

    func encode(to encoder: any Encoder) throws {
        try response.encode(to: encoder)
        var container = encoder.container(keyedBy: ClaimName.self)
        for (name, value) in (response.profileClaims ?? [:]).sorted(by: { $0.key < $1.key }) {
            try container.encode(value, forKey: ClaimName(name))
        }
    }
}
