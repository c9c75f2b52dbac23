import Benchmark
import Crypto
import Foundation
import JWTKit
import SCACore

/// The cryptography inside each flow, one primitive at a time, so a flow's measured rate can be
/// set against what it must compute:
/// - manual login: 1 scrypt verify + TOTP (HMAC-SHA1 over 3 steps) + 1 ES256 sign
/// - cold start: 2 P-256 verifies + 1 ES256 sign
/// - payment: the same + the transaction's JCS/SHA-256 digest
/// Whole flows are in the SCAFlows target.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput], warmupIterations: 10, maxDuration: .seconds(5), maxIterations: 100_000)

    Benchmark("P-256 verify (DeviceSignature.isValid)") { benchmark in
        let key = P256.Signing.PrivateKey()
        let payload = DeviceSignature.payload(
            method: .deviceKey, challengeID: "ch_xr_Y-x9SRKbZGpT5zXQV-w", nonce: "tiHPfvSJJQ2AZb0MmbI_ompJhBb9xDlSWUGmWTkl4ck",
            operation: .payment, transactionDigest: Primitives.acme.digest)
        let signature = Array(try key.signature(for: payload).rawRepresentation)
        let publicKey = Array(key.publicKey.x963Representation)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(DeviceSignature.isValid(signature: signature, over: payload, publicKey: publicKey))
        }
    }

    Benchmark("ES256 JWT sign (jwt-kit)") { benchmark in
        let keys = try await Primitives.keys()
        let claims = Primitives.claims()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await keys.sign(claims, kid: Primitives.keyID))
        }
    }

    Benchmark("ES256 JWT verify (jwt-kit)") { benchmark in
        let keys = try await Primitives.keys()
        let token = try await keys.sign(Primitives.claims(), kid: Primitives.keyID)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await keys.verify(token, as: Primitives.Claims.self))
        }
    }

    Benchmark("TOTP verify (TOTP.matchingStep, drift 1)") { benchmark in
        let totp = TOTP(secret: Array(repeating: 0x5A, count: 20))
        let now = Date()
        let code = totp.code(at: now)
        for _ in benchmark.scaledIterations {
            blackHole(totp.matchingStep(for: code, at: now, drift: 1))
        }
    }

    Benchmark("transaction digest (JCS + SHA-256)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(Primitives.acme.digest)
        }
    }

    Benchmark(
        "scrypt verify, default parameters (N=2^15,r=8,p=1)",
        configuration: .init(metrics: [.wallClock, .throughput, .peakMemoryResident], maxDuration: .seconds(10), maxIterations: 50)
    ) { benchmark in
        let hasher = PasswordHasher(parameters: .default)
        let hash = try hasher.hash("bench password 1")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(hasher.verify("bench password 1", against: hash))
        }
    }
}

/// Fixtures shared by the primitives.
enum Primitives {
    static let acme = Transaction(
        amount: "125.00", currency: "EUR", payee: .init(name: "ACME SAS", iban: "FR7630006000011234567890189"))
    static let keyID = JWKIdentifier(string: "bench")

    /// A payload shaped like the server's access token (same claims, same sizes).
    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var jti: IDClaim
        var sid: String
        var op: String
        var amr: [String]
        var acr: String
        var txn: String?

        // The server checks expiry and session itself; here only the signature is measured.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static func claims() -> Claims {
        let now = Date()
        return Claims(
            iss: "sca-server", sub: "usr_Q2xhdWRlIGJlbmNoIHVzZXI", aud: "sca", iat: .init(value: now),
            exp: .init(value: now.addingTimeInterval(300)), jti: "tok_3kTq8dT1fQ0n8N5Yk8m1wA", sid: "ses_3kTq8dT1fQ0n8N5Yk8m1wA",
            op: "payment", amr: ["device_key", "biometric_key"], acr: "sca", txn: acme.digest)
    }

    /// An ES256 key collection as the server builds it.
    static func keys() async throws -> JWTKeyCollection {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(backing: P256.Signing.PrivateKey()), kid: keyID)
        return keys
    }
}
