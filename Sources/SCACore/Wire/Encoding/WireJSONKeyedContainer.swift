/// The keyed container of ``WireJSONEncoder``: members are kept in the order encoded and sorted
/// when written.
struct WireJSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: WireJSONContainer

    var codingPath: [any CodingKey] { object.codingPath }

    private func put(_ node: WireJSONNode, _ key: Key) { object.append(key: key.stringValue, node) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try encodeValue(value, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encodeValue(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.signed(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.signed(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.unsigned(UInt64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.unsigned(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encodeValue(value, key) }

    private func encodeValue<T: Encodable>(_ value: T, _ key: Key) throws {
        let index = object.append(key: key.stringValue, .pending)
        try WireJSONSlotEncoder(parent: object, index: index).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(WireJSONKeyedContainer<NestedKey>(object: child(.object, key.stringValue)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        WireJSONUnkeyedContainer(array: child(.array, key.stringValue))
    }

    mutating func superEncoder() -> any Encoder {
        WireJSONSlotEncoder(parent: object, index: object.append(key: WireJSONKey.super.stringValue, .pending))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        WireJSONSlotEncoder(parent: object, index: object.append(key: key.stringValue, .pending))
    }

    /// The container under `name`: the one made before for that name, as Foundation fills one
    /// container when asked twice, else a new one.
    private func child(_ kind: WireJSONContainer.Kind, _ name: String) -> WireJSONContainer {
        if let existing = object.existing(key: name, kind: kind) { return existing }
        let index = object.append(key: name, .pending)
        let made = WireJSONContainer(kind: kind, parent: object, indexInParent: index)
        object.members[index].value = .container(made)
        return made
    }
}
