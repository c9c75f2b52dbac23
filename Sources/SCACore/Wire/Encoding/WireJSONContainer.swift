/// An object or array under construction, shared by reference between the encoder and the
/// containers handed to `encode(to:)`, as containers may be written after they were made.
final class WireJSONContainer {
    enum Kind { case object, array, root }

    let kind: Kind
    /// A member of an object, or an element of an array (with an empty key).
    struct Member {
        var key: String
        var value: WireJSONNode
    }

    /// In the order encoded. One array rather than keys and values apart: every access to a
    /// class's stored property costs a dynamic exclusivity check, so one append is one check.
    var members: [Member] = []
    /// Only to work out `codingPath` for error messages; unowned, as the parent holds its children.
    unowned let parent: WireJSONContainer?
    let indexInParent: Int

    init(kind: Kind, parent: WireJSONContainer?, indexInParent: Int) {
        self.kind = kind
        self.parent = parent
        self.indexInParent = indexInParent
        // Room for a typical message's members at once, instead of growing 1, 2, 4, 8.
        if kind == .object { members.reserveCapacity(8) }
    }

    /// Appends a member (objects) or element (arrays, `key` ignored) and says where it went.
    @discardableResult
    func append(key: String, _ value: WireJSONNode) -> Int {
        members.append(Member(key: key, value: value))
        return members.count - 1
    }

    /// The container already written under `key` with the given kind, which Foundation fills
    /// again when `nestedContainer(forKey:)` is asked twice for one key.
    func existing(key: String, kind: Kind) -> WireJSONContainer? {
        guard let member = members.last(where: { $0.key == key }), case .container(let child) = member.value,
            child.kind == kind
        else { return nil }
        return child
    }

    /// The key under which the value at `index` sits.
    func codingKey(at index: Int) -> any CodingKey {
        kind == .object ? WireJSONKey(stringValue: members[index].key) : WireJSONKey(index: index)
    }

    /// The path from the top to this container.
    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var current: WireJSONContainer = self
        while let parent = current.parent {
            if parent.kind != .root { path.append(parent.codingKey(at: current.indexInParent)) }
            current = parent
        }
        return path.reversed()
    }
}
