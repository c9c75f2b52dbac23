/// A coding key rebuilt from a member name or an array index, for `codingPath`.
struct WireJSONKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) { self.init(index: intValue) }

    init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    /// The key Foundation uses for `superEncoder()`.
    static let `super` = WireJSONKey(stringValue: "super")
}
