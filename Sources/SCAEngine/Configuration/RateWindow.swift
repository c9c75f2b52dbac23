/// One limit of a rate budget: at most `count` uses in any `seconds` (a sliding window).
/// Written `count/duration`, the duration in seconds or with a unit: `3/10m`, `10/1d`,
/// `300/60`.
package struct RateWindow: Sendable, Hashable, CustomStringConvertible {
    package var count: Int
    package var seconds: Int

    package init(count: Int, seconds: Int) {
        self.count = count
        self.seconds = seconds
    }

    /// The longest window accepted: longer ones would keep counters for weeks and lock a
    /// legitimate user out for as long.
    package static let maximumSeconds = 7 * 86_400

    /// `3/600` (seconds are always written as such).
    package var description: String { "\(count)/\(seconds)" }

    /// `3/10m`: as a setting is written, the duration in its largest whole unit.
    package var setting: String {
        for (unit, length) in [("d", 86_400), ("h", 3_600), ("m", 60)] where seconds % length == 0 {
            return "\(count)/\(seconds / length)\(unit)"
        }
        return "\(count)/\(seconds)s"
    }

    /// Parses `3/10m, 10/1d` (units `s`, `m`, `h`, `d`; none means seconds); `off` or an empty
    /// string is no limit at all.
    /// - Throws: `ConfigurationError` naming `key` for anything else.
    package static func list(_ text: String, key: String) throws -> [RateWindow] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.lowercased() == "off" { return [] }
        return try trimmed.split(separator: ",").map { item in
            let parts = item.split(separator: "/", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let count = Int(parts[0]), let seconds = duration(parts[1]) else {
                throw ConfigurationError("\(key) must be a list of count/duration such as 3/10m,10/1d (or off), got \"\(text)\"")
            }
            return RateWindow(count: count, seconds: seconds)
        }
    }

    private static func duration(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        if let last = text.last, let unit = units[last] {
            return Int(text.dropLast()).map { $0 * unit }
        }
        return Int(text)
    }
}
