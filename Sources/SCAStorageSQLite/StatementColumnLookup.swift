/// The lookups of one fetch: the statement's layout and where the last read was found. The
/// search starts there: a record reads its columns mostly in order, and reads an optional
/// column twice (whether it is NULL, then its value).
final class StatementColumnLookup {
    private let layout: StatementColumnLayout
    private var last = 0

    init(layout: StatementColumnLayout) {
        self.layout = layout
    }

    func index(of column: String) -> Int? {
        guard let index = layout.index(of: column, hint: last) else { return nil }
        last = index
        return index
    }
}

@available(*, unavailable)
extension StatementColumnLookup: Sendable {}
