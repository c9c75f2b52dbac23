import Foundation

/// Encodes `Encodable` values to the bytes `WireJSON.sharedEncoder` would produce (sorted keys,
/// slashes unescaped, ISO 8601 dates in whole UTC seconds, `Data` as base64), for a small part
/// of its cost.
///
/// Foundation's `JSONEncoder` pays for its generality on every value: a dynamic cast per value to
/// find dates and data, boxed references for every container, and a date formatter. Every
/// response of the server is encoded, so this encoder builds a light tree of the values (objects
/// must be buffered to sort their keys), recognises the special types by comparing metadata, and
/// writes the bytes in one pass. Where exact agreement would mean copying Foundation's
/// formatting rules (floating-point numbers, `Decimal`, `URL`, dates before 1583 or after 9999,
/// where Foundation's calendar turns Julian or years grow a fifth digit) it asks Foundation for that
/// one value, so the output stays byte-identical. No wire type sends such values today.
///
/// One difference is known and accepted: a hand-written `encode(to:)` that writes two keys that
/// are canonically equivalent but spelled differently (`"é"` precomposed and decomposed) into one
/// container gets both keys here, where Foundation keeps one. Synthesized conformances and
/// dictionaries cannot produce such keys.
package struct WireJSONEncoder: Sendable {
    package init() {}

    /// The JSON text of `value`, as UTF-8 bytes.
    package func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let root = WireJSONContainer(kind: .root, parent: nil, indexInParent: 0)
        let index = root.append(key: "", .pending)
        try WireJSONSlotEncoder(parent: root, index: index).encodeValue(value)
        let top = root.members[index].value
        if case .pending = top {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        var output: [UInt8] = []
        output.reserveCapacity(512)
        WireJSONWriter.write(top, to: &output)
        return output
    }
}
