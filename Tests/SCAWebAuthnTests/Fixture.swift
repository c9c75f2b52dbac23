import Foundation
import SCACore
import SCAWebAuthn

/// The ceremonies captured from Chromium's virtual authenticator (Fixtures/capture-fixtures.py).
struct Fixture: Decodable {
    let rpId: String
    let origin: String
    let cases: [String: Case]

    struct Case: Decodable {
        let challenge: String
        let userHandle: String?
        let response: Credential
    }

    struct Credential: Decodable {
        let rawId: String
        let response: Response
    }

    struct Response: Decodable {
        let clientDataJSON: String
        let attestationObject: String?
        let authenticatorData: String?
        let signature: String?
        let userHandle: String?
    }

    static let shared: Fixture = {
        guard let url = Bundle.module.url(
            forResource: "chromium-virtual-authenticator", withExtension: "json", subdirectory: "Fixtures"),
            let data = try? Data(contentsOf: url),
            let fixture = try? JSONDecoder().decode(Fixture.self, from: data)
        else { fatalError("the fixture file is part of the test bundle") }
        return fixture
    }()

    /// The relying party the fixtures were captured for.
    var relyingParty: RelyingParty {
        RelyingParty(id: rpId, name: "swift-sca test", origins: [origin])
    }

    func challenge(_ name: String) -> [UInt8] {
        Base64URL.decode(cases[name]!.challenge)!
    }

    func registration(_ name: String) -> RegistrationResponse {
        let credential = cases[name]!.response
        return RegistrationResponse(
            credentialId: Base64URL.decode(credential.rawId)!,
            clientDataJSON: Base64URL.decode(credential.response.clientDataJSON)!,
            attestationObject: Base64URL.decode(credential.response.attestationObject!)!
        )
    }

    func assertion(_ name: String) -> AssertionResponse {
        let credential = cases[name]!.response
        return AssertionResponse(
            credentialId: Base64URL.decode(credential.rawId)!,
            clientDataJSON: Base64URL.decode(credential.response.clientDataJSON)!,
            authenticatorData: Base64URL.decode(credential.response.authenticatorData!)!,
            signature: Base64URL.decode(credential.response.signature!)!,
            userHandle: credential.response.userHandle.flatMap(Base64URL.decode)
        )
    }

    /// The credential of a registration case, as the server stores it after verifying it.
    func stored(_ name: String) throws -> StoredCredential {
        let verified = try relyingParty.verifyRegistration(
            registration(name), expectedChallenge: challenge(name), requireUserVerification: false)
        return StoredCredential(
            credentialId: verified.credentialId,
            publicKey: verified.publicKey.encoded,
            signCount: verified.signCount,
            backupEligible: verified.backupEligible,
            userHandle: Base64URL.decode(cases[name]!.userHandle!)!
        )
    }
}

extension Array where Element == UInt8 {
    /// Bytes from an even-length hex string; test data only.
    init(hex: String) {
        let digits = Array(hex.utf8)
        self = stride(from: 0, to: digits.count, by: 2).map { index in
            UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) ?? 0
        }
    }
}
