import Crypto
import Foundation
import Testing
import SCACore

@Suite("Device signatures (P-256, raw r||s)")
struct DeviceSignatureTests {
    let key = P256.Signing.PrivateKey()
    var publicKey: [UInt8] { Array(key.publicKey.x963Representation) }
    static let payload = DeviceSignature.payload(
        method: .deviceKey, challengeID: "chl_abc", nonce: "n0nce", operation: .payment, transactionDigest: "dGVzdA")

    func sign(_ payload: [UInt8], with key: P256.Signing.PrivateKey) throws -> [UInt8] {
        Array(try key.signature(for: payload).rawRepresentation)
    }

    @Test("payload strings for payment and login")
    func payloads() {
        #expect(
            String(decoding: Self.payload, as: UTF8.self) == "sca-v1|device_key|chl_abc|n0nce|payment|dGVzdA")
        let login = DeviceSignature.payload(
            method: .biometricKey, challengeID: "chl_1", nonce: "abc", operation: .login, transactionDigest: nil)
        #expect(String(decoding: login, as: UTF8.self) == "sca-v1|biometric_key|chl_1|abc|login|-")
        let activation = DeviceSignature.payload(
            method: .deviceKey, challengeID: "chl_2", nonce: "x", operation: .deviceActivation, transactionDigest: nil)
        #expect(String(decoding: activation, as: UTF8.self) == "sca-v1|device_key|chl_2|x|device_activation|-")
    }

    @Test("a fresh key's signature verifies")
    func roundTrip() throws {
        let signature = try sign(Self.payload, with: key)
        #expect(signature.count == 64)
        #expect(publicKey.count == 65)
        #expect(DeviceSignature.publicKeyProblem(publicKey) == nil)
        #expect(DeviceSignature.isValid(signature: signature, over: Self.payload, publicKey: publicKey))
    }

    @Test("a DER signature from the same key is refused: the wire form is raw r||s")
    func derRefused() throws {
        let der = Array(try key.signature(for: Self.payload).derRepresentation)
        #expect(!DeviceSignature.isValid(signature: der, over: Self.payload, publicKey: publicKey))
    }

    @Test("any changed payload byte fails")
    func changedPayload() throws {
        let signature = try sign(Self.payload, with: key)
        for index in Self.payload.indices {
            var changed = Self.payload
            changed[index] ^= 0x01
            #expect(!DeviceSignature.isValid(signature: signature, over: changed, publicKey: publicKey), "byte \(index)")
        }
        #expect(!DeviceSignature.isValid(signature: signature, over: Self.payload + [0x7C], publicKey: publicKey))
        #expect(!DeviceSignature.isValid(signature: signature, over: Array(Self.payload.dropLast()), publicKey: publicKey))
    }

    @Test("a signature over another challenge, operation or digest fails")
    func otherContext() throws {
        let signature = try sign(Self.payload, with: key)
        for other in [
            DeviceSignature.payload(method: .biometricKey, challengeID: "chl_abc", nonce: "n0nce", operation: .payment, transactionDigest: "dGVzdA"),
            DeviceSignature.payload(method: .deviceKey, challengeID: "chl_abd", nonce: "n0nce", operation: .payment, transactionDigest: "dGVzdA"),
            DeviceSignature.payload(method: .deviceKey, challengeID: "chl_abc", nonce: "n0nc3", operation: .payment, transactionDigest: "dGVzdA"),
            DeviceSignature.payload(method: .deviceKey, challengeID: "chl_abc", nonce: "n0nce", operation: .login, transactionDigest: "dGVzdA"),
            DeviceSignature.payload(method: .deviceKey, challengeID: "chl_abc", nonce: "n0nce", operation: .payment, transactionDigest: nil),
        ] {
            #expect(!DeviceSignature.isValid(signature: signature, over: other, publicKey: publicKey))
        }
    }

    @Test("another key fails")
    func otherKey() throws {
        let signature = try sign(Self.payload, with: key)
        let other = Array(P256.Signing.PrivateKey().publicKey.x963Representation)
        #expect(!DeviceSignature.isValid(signature: signature, over: Self.payload, publicKey: other))
    }

    @Test("malformed signatures fail without crashing")
    func malformedSignatures() throws {
        let signature = try sign(Self.payload, with: key)
        var flipped = signature
        flipped[10] ^= 0x80
        for bad in [
            Array(signature.dropLast()), signature + [0], [], [UInt8](repeating: 0, count: 64),
            [UInt8](repeating: 0xFF, count: 64), flipped, Array(signature[32...] + signature[..<32]),
        ] {
            #expect(!DeviceSignature.isValid(signature: bad, over: Self.payload, publicKey: publicKey), "\(bad.count)")
        }
    }

    @Test("malformed public keys are refused with a reason and never verify")
    func malformedKeys() throws {
        let signature = try sign(Self.payload, with: key)
        let compressed = Array(key.publicKey.compressedRepresentation)
        let offCurve = [UInt8(0x04)] + [UInt8](repeating: 0x01, count: 64)
        var wrongPrefix = publicKey
        wrongPrefix[0] = 0x03
        var notOnCurve = publicKey
        notOnCurve[64] ^= 0x01
        let cases: [([UInt8], String)] = [
            (Array(publicKey.dropFirst()), "public key must be 65 bytes"),  // 64-byte raw x||y
            (publicKey + [0], "public key must be 65 bytes"),
            ([], "public key must be 65 bytes"),
            (compressed, "public key must be 65 bytes"),
            (offCurve, "public key is not a P-256 point"),
            (notOnCurve, "public key is not a P-256 point"),
            (wrongPrefix, "public key is not a P-256 point"),
            ([UInt8](repeating: 0, count: 65), "public key is not a P-256 point"),
            ([0x04] + [UInt8](repeating: 0xFF, count: 64), "public key is not a P-256 point"),
        ]
        for (bad, reason) in cases {
            #expect(DeviceSignature.publicKeyProblem(bad) == reason, "\(bad.count) bytes")
            #expect(!DeviceSignature.isValid(signature: signature, over: Self.payload, publicKey: bad))
        }
    }

    @Test("activation proof: signed by the key being registered")
    func activationProof() throws {
        let code = ActivationCode.generate(using: SeededRandomForTesting(seed: 1))
        let payload = DeviceSignature.activationPayload(for: code)
        #expect(String(decoding: payload, as: UTF8.self) == "sca-v1|activation|\(code)")
        let proof = try sign(payload, with: key)
        #expect(DeviceSignature.isValid(signature: proof, over: payload, publicKey: publicKey))
        let other = ActivationCode.generate(using: SeededRandomForTesting(seed: 2))
        #expect(!DeviceSignature.isValid(signature: proof, over: DeviceSignature.activationPayload(for: other), publicKey: publicKey))
    }
}
