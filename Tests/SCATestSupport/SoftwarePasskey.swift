import Crypto
import Foundation
import SCACore

/// A platform authenticator as the tests play it: one P-256 credential, `none` attestation, a
/// signature counter, and the client data a browser at `origin` would write.
public final class SoftwarePasskey: @unchecked Sendable {
    public let key = P256.Signing.PrivateKey()
    public let credentialID: [UInt8] = (0..<16).map { _ in UInt8.random(in: 0...255) }
    public let rpID: String
    public var origin: String
    /// The counter the next signature carries (then incremented); 0 stays 0 (no counter).
    public var signCount: UInt32
    public var userHandle: [UInt8]?

    public init(rpID: String = "localhost", origin: String = "http://localhost:8080", signCount: UInt32 = 1) {
        self.rpID = rpID
        self.origin = origin
        self.signCount = signCount
    }

    public var credentialIDText: String { Base64URL.encode(credentialID) }

    /// `navigator.credentials.create` for `options`.
    public func register(_ options: PasskeyCreationOptions, userVerified: Bool = true) -> PasskeyRegistrationCredential {
        userHandle = Base64URL.decode(options.user.id)
        let clientData = clientDataJSON(type: "webauthn.create", challenge: options.challenge)
        let raw = key.publicKey.x963Representation
        let cose = TestCBOR.map([
            (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
            (.int(-2), .bytes(Array(raw[1..<33]))), (.int(-3), .bytes(Array(raw[33..<65]))),
        ]).encoded
        var flags: UInt8 = 0x01 | 0x40
        if userVerified { flags |= 0x04 }
        let authData = rpIDHash + [flags] + TestCBOR.bigEndian(UInt64(signCount), count: 4) + [UInt8](repeating: 0, count: 16)
            + TestCBOR.bigEndian(UInt64(credentialID.count), count: 2) + credentialID + cose
        // A real authenticator counts the registration too, so the first assertion's counter
        // is above the stored one.
        if signCount != 0 { signCount += 1 }
        let attestation = TestCBOR.map([
            (.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authData)),
        ]).encoded
        return PasskeyRegistrationCredential(
            id: credentialIDText,
            response: PasskeyAttestationResponse(
                clientDataJSON: Base64URL.encode(clientData), attestationObject: Base64URL.encode(attestation)))
    }

    /// `navigator.credentials.get` over `challenge` (base64url).
    public func assert(challenge: String, userVerified: Bool = true) -> PasskeyAssertionCredential {
        let clientData = clientDataJSON(type: "webauthn.get", challenge: challenge)
        var flags: UInt8 = 0x01
        if userVerified { flags |= 0x04 }
        let authData = rpIDHash + [flags] + TestCBOR.bigEndian(UInt64(signCount), count: 4)
        if signCount != 0 { signCount += 1 }
        let signature = try! key.signature(for: authData + Array(SHA256.hash(data: clientData))).derRepresentation
        return PasskeyAssertionCredential(
            id: credentialIDText,
            response: PasskeyAssertionResponse(
                clientDataJSON: Base64URL.encode(clientData), authenticatorData: Base64URL.encode(authData),
                signature: Base64URL.encode(signature), userHandle: userHandle.map(Base64URL.encode)))
    }

    private var rpIDHash: [UInt8] { Array(SHA256.hash(data: Array(rpID.utf8))) }

    private func clientDataJSON(type: String, challenge: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }
}
