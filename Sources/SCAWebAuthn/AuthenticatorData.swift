import Crypto

/// The authenticator's own statement of a ceremony: which relying party, which flags, which
/// counter and, at registration, the new credential.
package struct AuthenticatorData: Sendable, Equatable {
    /// SHA-256 of the relying party id the authenticator scoped the credential to.
    package let rpIdHash: [UInt8]
    package let flags: AuthenticatorFlags
    /// The signature counter; 0 from authenticators that keep none.
    package let signCount: UInt32
    /// Present when the AT flag is set (registration).
    package let attestedCredential: AttestedCredentialData?
    /// The extension outputs, when the ED flag is set.
    package let extensions: CBORValue?
    /// The bytes as received: signatures cover these, never a re-encoding.
    package let raw: [UInt8]

    /// Parses authenticator data, refusing anything short, left over or inconsistent.
    package init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw .malformedAuthenticatorData }
        rpIdHash = Array(bytes[0..<32])
        flags = AuthenticatorFlags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        raw = bytes
        // A credential that cannot be backed up cannot be backed up now.
        if flags.contains(.backedUp) && !flags.contains(.backupEligible) {
            throw .malformedAuthenticatorData
        }
        var position = 37
        if flags.contains(.attestedCredentialData) {
            // aaguid (16) and the credential id's length (2).
            guard bytes.count >= position + 18 else { throw .malformedAuthenticatorData }
            let aaguid = Array(bytes[position..<position + 16])
            let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard length <= 1023, bytes.count >= position + length else { throw .malformedAuthenticatorData }
            let credentialId = Array(bytes[position..<position + length])
            position += length
            let keyStart = position
            let keyEnd: Int
            do {
                (_, keyEnd) = try CBORDecoder().decodePrefix(bytes, from: keyStart)
            } catch {
                throw .malformedCBOR(error)
            }
            let keyBytes = Array(bytes[keyStart..<keyEnd])
            position = keyEnd
            attestedCredential = AttestedCredentialData(
                aaguid: aaguid,
                credentialId: credentialId,
                publicKey: try COSEKey(keyBytes)
            )
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            do {
                let (value, end) = try CBORDecoder().decodePrefix(bytes, from: position)
                guard value.mapEntries != nil else { throw WebAuthnError.malformedAuthenticatorData }
                extensions = value
                position = end
            } catch let error as CBORError {
                throw .malformedCBOR(error)
            } catch {
                throw .malformedAuthenticatorData
            }
        } else {
            extensions = nil
        }
        guard position == bytes.count else { throw .malformedAuthenticatorData }
    }

    /// Whether this data was made for `rpId`.
    package func isScoped(to rpId: String) -> Bool {
        let expected = Array(SHA256.hash(data: Array(rpId.utf8)))
        return expected == rpIdHash
    }
}

/// The credential an authenticator created, as it states it in authenticator data.
package struct AttestedCredentialData: Sendable, Equatable {
    /// The authenticator model's identifier (zeros when attestation is `none`).
    package let aaguid: [UInt8]
    package let credentialId: [UInt8]
    package let publicKey: COSEKey
}
