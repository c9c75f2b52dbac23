import SwiftASN1
import X509

/// Verification of the `packed` attestation statement format: a signature over the
/// authenticator data and the client data hash, by the credential itself (self attestation)
/// or by the leaf of a certificate chain (x5c).
enum PackedAttestation {
    /// The certificate extension that names the authenticator model (id-fido-gen-ce-aaguid).
    static let aaguidExtension: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]

    /// Verifies the statement and says which kind of attestation it is.
    static func verify(
        statement: CBORValue,
        authenticatorData: AuthenticatorData,
        credential: AttestedCredentialData,
        clientDataHash: [UInt8]
    ) throws(WebAuthnError) -> AttestationType {
        guard let algorithmId = statement[text: "alg"]?.integer,
            let signature = statement[text: "sig"]?.byteString
        else { throw .malformedAttestation }
        // ECDAA was withdrawn from the specification; nothing may carry it any more.
        guard statement[text: "ecdaaKeyId"] == nil else { throw .unsupportedAttestationFormat("packed/ecdaa") }
        let signedData = authenticatorData.raw + clientDataHash
        guard let chain = statement[text: "x5c"] else {
            // Self attestation: the credential signs its own registration, with its own algorithm.
            guard algorithmId == credential.publicKey.algorithm.rawValue else { throw .algorithmNotAllowed }
            guard credential.publicKey.isValidSignature(signature, for: signedData) else { throw .invalidSignature }
            return .self
        }
        guard let items = chain.arrayItems, let leafBytes = items.first?.byteString,
            items.allSatisfy({ $0.byteString != nil })
        else { throw .malformedAttestation }
        guard let algorithm = COSEAlgorithm(rawValue: algorithmId) else { throw .algorithmNotAllowed }
        let leaf: Certificate
        do {
            leaf = try Certificate(derEncoded: leafBytes)
        } catch {
            throw .invalidAttestationCertificate
        }
        try checkRequirements(of: leaf, aaguid: credential.aaguid)
        guard leaf.publicKey.isValidSignature(signature, for: signedData, signatureAlgorithm: algorithm.certificateAlgorithm)
        else { throw .invalidSignature }
        return .basic
    }

    /// The packed format's requirements for the attestation certificate: version 3, the
    /// subject's organisational unit "Authenticator Attestation", not a CA, and when it names
    /// the authenticator model, the model the authenticator data names.
    private static func checkRequirements(of leaf: Certificate, aaguid: [UInt8]) throws(WebAuthnError) {
        guard leaf.version == .v3 else { throw .invalidAttestationCertificate }
        let units = leaf.subject.flatMap { $0 }
            .filter { $0.type == .RDNAttributeType.organizationalUnitName }
            .compactMap { String($0.value) }
        guard units == ["Authenticator Attestation"] else { throw .invalidAttestationCertificate }
        guard case .some(.notCertificateAuthority) = try? leaf.extensions.basicConstraints else {
            throw .invalidAttestationCertificate
        }
        if let model = leaf.extensions[oid: aaguidExtension] {
            // An OCTET STRING holding the 16 bytes; the extension must not be critical.
            guard !model.critical,
                let node = try? DER.parse(model.value),
                let octets = try? ASN1OctetString(derEncoded: node),
                Array(octets.bytes) == aaguid
            else { throw .invalidAttestationCertificate }
        }
    }
}

extension COSEAlgorithm {
    /// The same algorithm as certificates name it.
    var certificateAlgorithm: Certificate.SignatureAlgorithm {
        switch self {
        case .es256: .ecdsaWithSHA256
        case .edDSA: .ed25519
        case .rs256: .sha256WithRSAEncryption
        }
    }
}
