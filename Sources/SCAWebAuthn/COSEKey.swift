import Crypto
import CryptoExtras

/// A credential public key in COSE form (RFC 9052/9053), as authenticators send it and as the
/// server stores it.
package struct COSEKey: Sendable, Equatable {
    /// The algorithm the key is for.
    package let algorithm: COSEAlgorithm
    /// The COSE encoding as received: what the server stores and parses again at each assertion.
    package let encoded: [UInt8]
    private let key: Key

    private enum Key: Sendable, Equatable {
        case p256(x963: [UInt8])
        case ed25519(raw: [UInt8])
        case rsa(n: [UInt8], e: [UInt8])
    }

    // COSE labels (RFC 9052 §7.1, RFC 9053 §7).
    private static let kty: Int64 = 1
    private static let alg: Int64 = 3
    private static let crv: Int64 = -1
    private static let x: Int64 = -2
    private static let y: Int64 = -3
    private static let rsaN: Int64 = -1
    private static let rsaE: Int64 = -2

    /// Parses a COSE key, refusing kinds other than EC2 P-256 for ES256, OKP Ed25519 for EdDSA
    /// and RSA (2048 bits or more) for RS256.
    package init(_ encoded: [UInt8]) throws(WebAuthnError) {
        let map: CBORValue
        do {
            map = try CBORDecoder(maximumDepth: 1).decode(encoded)
        } catch {
            throw .malformedCBOR(error)
        }
        guard map.mapEntries != nil,
            let kty = map[label: Self.kty]?.integer,
            let algorithmId = map[label: Self.alg]?.integer
        else { throw .malformedPublicKey }
        guard let algorithm = COSEAlgorithm(rawValue: algorithmId) else { throw .algorithmNotAllowed }
        self.algorithm = algorithm
        self.encoded = encoded
        switch algorithm {
        case .es256:
            guard kty == 2, map[label: Self.crv]?.integer == 1,
                let x = map[label: Self.x]?.byteString, x.count == 32,
                let y = map[label: Self.y]?.byteString, y.count == 32
            else { throw .malformedPublicKey }
            let x963 = [0x04] + x + y
            // A point off the curve is refused here, not at the first assertion.
            guard (try? P256.Signing.PublicKey(x963Representation: x963)) != nil else { throw .malformedPublicKey }
            key = .p256(x963: x963)
        case .edDSA:
            guard kty == 1, map[label: Self.crv]?.integer == 6,
                let x = map[label: Self.x]?.byteString, x.count == 32,
                (try? Curve25519.Signing.PublicKey(rawRepresentation: x)) != nil
            else { throw .malformedPublicKey }
            key = .ed25519(raw: x)
        case .rs256:
            guard kty == 3,
                let n = map[label: Self.rsaN]?.byteString,
                let e = map[label: Self.rsaE]?.byteString,
                (try? _RSA.Signing.PublicKey(n: n, e: e)) != nil
            else { throw .malformedPublicKey }
            key = .rsa(n: n, e: e)
        }
    }

    /// Whether `signature` (in the form WebAuthn uses for the algorithm: DER for ECDSA, raw for
    /// EdDSA and RSA) signs `data` with this key.
    package func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        switch key {
        case .p256(let x963):
            guard let publicKey = try? P256.Signing.PublicKey(x963Representation: x963),
                let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature)
            else { return false }
            return publicKey.isValidSignature(ecdsa, for: data)
        case .ed25519(let raw):
            guard let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else { return false }
            return publicKey.isValidSignature(signature, for: data)
        case .rsa(let n, let e):
            guard let publicKey = try? _RSA.Signing.PublicKey(n: n, e: e) else { return false }
            return publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: data, padding: .insecurePKCS1v1_5)
        }
    }
}
