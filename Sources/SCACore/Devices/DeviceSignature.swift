import Crypto

/// What a bound device signs, and the check of its signature.
///
/// Keys are P-256 (what a Secure Enclave makes), public keys X9.63 uncompressed points
/// (65 bytes), signatures ECDSA-SHA256 as raw `r||s` (64 bytes).
package enum DeviceSignature {
    static let version = "sca-v1"
    static let publicKeyLength = 65
    static let signatureLength = 64

    /// UTF-8 of "sca-v1|<method>|<challengeId>|<nonce>|<operation>|<transactionDigest or ->"
    /// (method and operation are wire raw values).
    ///
    /// Every field that distinguishes one approval from another is in the signed bytes, so a
    /// login signature is no payment signature and one challenge's signature is no other's.
    package static func payload(
        method: AuthenticationMethod, challengeID: String, nonce: String, operation: OperationKind,
        transactionDigest: String?
    ) -> [UInt8] {
        let fields = [version, method.rawValue, challengeID, nonce, operation.rawValue, transactionDigest ?? "-"]
        return Array(fields.joined(separator: "|").utf8)
    }

    /// UTF-8 of "sca-v1|activation|<canonical activation code>".
    ///
    /// Signed by the new possession key: proves the device holds the private key it registers.
    package static func activationPayload(for code: ActivationCode) -> [UInt8] {
        Array("\(version)|activation|\(code.description)".utf8)
    }

    /// UTF-8 of "sca-v1|recovery|<canonical recovery code>|<PUK digits>".
    ///
    /// Signed by the new possession key of a recovery: the key proves its possession over
    /// the very PUK it is bound with, so the signature serves no other recovery.
    package static func recoveryPayload(code: ActivationCode, puk: RecoveryPUK) -> [UInt8] {
        Array("\(version)|recovery|\(code.description)|\(puk.digits)".utf8)
    }

    /// nil when `x963` is a 65-byte uncompressed P-256 point on the curve; otherwise a short
    /// reason ("public key must be 65 bytes", "public key is not a P-256 point").
    package static func publicKeyProblem(_ x963: [UInt8]) -> String? {
        guard x963.count == publicKeyLength else { return "public key must be 65 bytes" }
        guard publicKey(x963) != nil else { return "public key is not a P-256 point" }
        return nil
    }

    /// ECDSA-SHA256 over `payload`; `signature` is raw r||s (64 bytes). false for any malformed
    /// key or signature, never throws or crashes.
    package static func isValid(signature: [UInt8], over payload: [UInt8], publicKey x963: [UInt8]) -> Bool {
        guard signature.count == signatureLength, let key = publicKey(x963),
            let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
        else { return false }
        return key.isValidSignature(ecdsa, for: payload)
    }

    /// The key, only for the uncompressed form: the 0x04 prefix is checked here because the
    /// wire format is fixed at 65 bytes and nothing else should be stored as a device key.
    private static func publicKey(_ x963: [UInt8]) -> P256.Signing.PublicKey? {
        guard x963.count == publicKeyLength, x963.first == 0x04 else { return nil }
        return try? P256.Signing.PublicKey(x963Representation: x963)
    }
}
