/// Base64 with the URL and file name safe alphabet (RFC 4648 §5), without padding: the form
/// of every binary value on the wire (nonces, digests, signatures).
public enum Base64URL {
    /// Encodes bytes as unpadded base64url.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Base64Codec.url.encode(bytes)
    }

    /// Decodes unpadded base64url.
    ///
    /// Strict on purpose, so that each byte string has one spelling only: returns nil for
    /// `=` padding, `+` or `/`, whitespace, any other character outside the alphabet, a length
    /// that no byte string encodes to (`count % 4 == 1`), and non-zero bits after the last byte.
    public static func decode(_ string: String) -> [UInt8]? {
        Base64Codec.url.decode(string)
    }
}
