/// The unkeyed container of ``WireJSONEncoder``.
struct WireJSONUnkeyedContainer: UnkeyedEncodingContainer, WireJSONPrimitiveEncoding {
    let array: WireJSONContainer

    var codingPath: [any CodingKey] { array.codingPath }
    var count: Int { array.members.count }

    func put(_ node: WireJSONNode) { array.append(key: "", node) }

    func encodeValue<T: Encodable>(_ value: T) throws {
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
