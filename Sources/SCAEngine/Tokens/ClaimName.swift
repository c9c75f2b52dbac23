/// Any claim name, for JWT claims named at run time: a token's profile claims, a JWT
/// authorization response's parameters.
package struct ClaimName: CodingKey {
    package var stringValue: String
    package var intValue: Int? { nil }
    package init(_ name: String) { stringValue = name }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}
