import Foundation

/// The `Encoder` handed to a value's `encode(to:)`: it writes into one place reserved in its
/// parent container. Small enough (two words) to be passed as `any Encoder` without an allocation.
struct WireJSONSlotEncoder: Encoder {
    let parent: WireJSONContainer
    let index: Int

    var codingPath: [any CodingKey] {
        parent.kind == .root ? [] : parent.codingPath + [parent.codingKey(at: index)]
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(WireJSONKeyedContainer<Key>(object: child(.object)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        WireJSONUnkeyedContainer(array: child(.array))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// The value, recognising the types Foundation writes specially.
    func encodeValue<T: Encodable>(_ value: T) throws {
        do {
            if let node = try WireJSONNode.special(value) {
                set(node)
                return
            }
        } catch EncodingError.invalidValue(let invalid, let context) {
            // Foundation encoded the value alone; say where it was.
            throw EncodingError.invalidValue(
                invalid, EncodingError.Context(codingPath: codingPath, debugDescription: context.debugDescription))
        }
        try value.encode(to: self)
    }

    func set(_ node: WireJSONNode) { parent.members[index].value = node }

    /// The container in this place: the one made before when asked again (Foundation fills one
    /// container for repeated requests), else a new one.
    private func child(_ kind: WireJSONContainer.Kind) -> WireJSONContainer {
        if case .container(let existing) = parent.members[index].value, existing.kind == kind { return existing }
        let made = WireJSONContainer(kind: kind, parent: parent, indexInParent: index)
        parent.members[index].value = .container(made)
        return made
    }
}
