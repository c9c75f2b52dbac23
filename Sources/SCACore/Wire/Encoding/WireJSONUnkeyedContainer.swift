/// The unkeyed container of ``WireJSONEncoder``.
struct WireJSONUnkeyedContainer: UnkeyedEncodingContainer {
    let array: WireJSONContainer

    var codingPath: [any CodingKey] { array.codingPath }
    var count: Int { array.members.count }

    private func put(_ node: WireJSONNode) { array.append(key: "", node) }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { try encodeValue(value) }
    mutating func encode(_ value: Float) throws { try encodeValue(value) }
    mutating func encode(_ value: Int) throws { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int8) throws { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int16) throws { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int32) throws { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int64) throws { put(.signed(value)) }
    mutating func encode(_ value: UInt) throws { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { put(.unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }

    private func encodeValue<T: Encodable>(_ value: T) throws {
        let index = array.append(key: "", .pending)
        try WireJSONSlotEncoder(parent: array, index: index).encodeValue(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(WireJSONKeyedContainer<NestedKey>(object: child(.object)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        WireJSONUnkeyedContainer(array: child(.array))
    }

    mutating func superEncoder() -> any Encoder {
        WireJSONSlotEncoder(parent: array, index: array.append(key: "", .pending))
    }

    private func child(_ kind: WireJSONContainer.Kind) -> WireJSONContainer {
        let index = array.append(key: "", .pending)
        let made = WireJSONContainer(kind: kind, parent: array, indexInParent: index)
        array.members[index].value = .container(made)
        return made
    }
}
