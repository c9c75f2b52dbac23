/// One data item of the CBOR subset WebAuthn uses (RFC 8949): integers, byte and text strings,
/// arrays, maps and the simple values `false`, `true`, `null` and `undefined`.
///
/// Tags, floating-point numbers and indefinite lengths are not part of it: no authenticator
/// structure needs them, so the decoder refuses them rather than carrying code nobody tests.
package indirect enum CBORValue: Sendable, Equatable {
    /// Major type 0: an integer from 0 to 2^64-1.
    case unsigned(UInt64)
    /// Major type 1: the integer `-1 - n` for the carried `n`, so from -1 down to -2^64.
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3, valid UTF-8.
    case text(String)
    /// Major type 4.
    case array([CBORValue])
    /// Major type 5, in the order the encoder wrote the pairs; keys are unique.
    case map([CBORMapEntry])
    /// Simple values 20 and 21.
    case bool(Bool)
    /// Simple value 22.
    case null
    /// Simple value 23.
    case undefined

    /// The value as a signed integer, when it is an integer that fits in `Int64`.
    package var integer: Int64? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int64.max) ? Int64(n) : nil
        case .negative(let n): n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        default: nil
        }
    }

    /// The bytes of a byte string.
    package var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { bytes } else { nil }
    }

    /// The string of a text string.
    package var textString: String? {
        if case .text(let text) = self { text } else { nil }
    }

    /// The items of an array.
    package var arrayItems: [CBORValue]? {
        if case .array(let items) = self { items } else { nil }
    }

    /// The pairs of a map.
    package var mapEntries: [CBORMapEntry]? {
        if case .map(let entries) = self { entries } else { nil }
    }

    /// The value stored under `key` when this is a map holding it.
    package subscript(key: CBORValue) -> CBORValue? {
        mapEntries?.first { $0.key == key }?.value
    }

    /// The value stored under a text key (WebAuthn's attestation object uses text keys).
    package subscript(text key: String) -> CBORValue? {
        self[.text(key)]
    }

    /// The value stored under an integer key (COSE keys use integer labels).
    package subscript(label key: Int64) -> CBORValue? {
        self[key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))]
    }
}

/// One key-value pair of a CBOR map.
package struct CBORMapEntry: Sendable, Equatable {
    package let key: CBORValue
    package let value: CBORValue

    package init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
