/// Comparisons of secrets whose running time does not depend on the secrets' contents.
package enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes.
    ///
    /// Every byte is visited whatever the differences, so timing reveals nothing about where
    /// two inputs differ. The lengths may leak: compare values of a fixed length (hashes, MACs,
    /// codes of a known length) when the length itself is secret.
    package static func equals<A: Collection, B: Collection>(_ a: A, _ b: B) -> Bool
    where A.Element == UInt8, B.Element == UInt8 {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) {
            difference |= x ^ y
        }
        return difference == 0
    }
}
