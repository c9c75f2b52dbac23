/// Why bytes are not a CBOR item the decoder accepts.
package enum CBORError: Error, Sendable, Equatable {
    /// The input ends inside an item (a header, an argument, or a length past the end).
    case truncated
    /// Bytes are left after the item where none were expected.
    case trailingBytes
    /// An indefinite length, a reserved additional-information value, a tag, a float or an
    /// unassigned simple value: outside the subset WebAuthn uses.
    case unsupported
    /// Arrays and maps nested deeper than the decoder allows.
    case tooDeep
    /// More items in all than the decoder allows.
    case tooManyItems
    /// A text string that is not valid UTF-8.
    case invalidText
    /// A map holding the same key twice.
    case duplicateKey
}
