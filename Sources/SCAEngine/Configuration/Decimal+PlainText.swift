import Foundation

extension Decimal {
    /// A decimal written plainly, such as `1000.00` or `0.92`: digits, and at most one point
    /// with digits on both sides. `Decimal(string:)` alone stops at the first character it
    /// cannot read and keeps what came before (`12abc` is 12, `1,5` is 1), and takes a sign, an
    /// exponent and leading spaces; a setting written so is a typo, refused here.
    ///
    /// Read without a locale: a `Locale` would make ICU load a locale's data and its number
    /// formatters at start-up, about 2 MB of the server's resident memory, for two settings.
    init?(plainText text: String) {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }),
            let value = Decimal(string: text)
        else { return nil }
        self = value
    }
}
