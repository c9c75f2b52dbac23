/// The lookups of one fetch: the statement's layout and where the last read was found, since
/// records read their columns mostly in order.
final class StatementColumnLookup {
    private let layout: StatementColumnLayout
    private var next = 0

    init(layout: StatementColumnLayout) {
        self.layout = layout
    }

    func index(of column: String) -> Int? {
        guard let index = layout.index(of: column, hint: next) else { return nil }
        next = index + 1
        return index
    }
}

@available(*, unavailable)
extension StatementColumnLookup: Sendable {}
