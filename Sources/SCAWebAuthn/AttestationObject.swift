/// The registration's attestation object: the authenticator data and the statement that
/// vouches for it, in the format `fmt` names.
package struct AttestationObject: Sendable {
    package let format: String
    package let statement: CBORValue
    package let authenticatorData: AuthenticatorData

    /// Parses the CBOR map `{fmt, attStmt, authData}`.
    package init(_ bytes: [UInt8]) throws(WebAuthnError) {
        let map: CBORValue
        do {
            map = try CBORDecoder().decode(bytes)
        } catch {
            throw .malformedCBOR(error)
        }
        guard let format = map[text: "fmt"]?.textString,
            let statement = map[text: "attStmt"], statement.mapEntries != nil,
            let authData = map[text: "authData"]?.byteString
        else { throw .malformedAttestation }
        self.format = format
        self.statement = statement
        self.authenticatorData = try AuthenticatorData(authData)
    }
}
