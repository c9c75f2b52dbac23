import Crypto

extension Transaction.Payee {
    /// The RFC 8785 (JCS) bytes of the payee alone: what a `beneficiary_add` challenge binds
    /// its proofs and token to, and the key under which the risk engine knows a payee.
    package var canonicalBytes: [UInt8] {
        var object: [String: JSONValue] = ["name": .string(name)]
        if let iban { object["iban"] = .string(iban) }
        return JCS.canonicalize(.object(object))
    }

    /// `base64url(SHA-256(canonical bytes))`.
    package var digest: String {
        Base64URL.encode(Array(SHA256.hash(data: canonicalBytes)))
    }
}
