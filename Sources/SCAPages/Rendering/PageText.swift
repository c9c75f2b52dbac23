import SCALocalization

/// A sentence a page shows on the next request (a notice, an error), kept as its catalogue key
/// and values rather than as words: the visit's cookie carries it, and the page that shows it
/// writes it in the language of that request, so switching language keeps the message.
struct PageText: Codable, Sendable, Equatable {
    var key: String
    var values: [String: String] = [:]
    /// For a plural entry: the number that picks its form.
    var count: Int?
    /// Sentences that follow this one (the attempts left after "That is not right.").
    var then: [PageText] = []

    init(_ key: String, _ values: [String: String] = [:], count: Int? = nil, then: [PageText] = []) {
        self.key = key
        self.values = values
        self.count = count
        self.then = then
    }

    /// The words, in `localizer`'s language.
    func text(in localizer: Localizer) -> String {
        let own = count.map { localizer.text(key, count: $0, values) } ?? localizer.text(key, values)
        return ([own] + then.map { $0.text(in: localizer) }).joined(separator: " ")
    }
}
