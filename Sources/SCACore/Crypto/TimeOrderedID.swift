import Foundation

/// Identifiers that sort by when they were made: the type prefix, the creation time in
/// milliseconds since 1970 as 10 characters of an alphabet in ASCII order (`0-9a-v`, 5 bits
/// each), and 16 random bytes in base64url, e.g. `ch_0rj4d8u1k2` + 22 random characters.
///
/// For the rows made at a high rate (challenges, sessions): each insert lands at the right
/// edge of its primary-key index instead of on a random page of it, so a write transaction
/// dirties a page that the last one dirtied too, and a WAL checkpoint copies a few hot pages
/// instead of one page per insert spread over the whole file. The 128 random bits
/// are what make the identifier unguessable; the time it shows is when its holder made it.
package enum TimeOrderedID {
    /// The time alphabet, in ASCII order, so that the text sorts as the time does.
    private static let alphabet = Array("0123456789abcdefghijklmnopqrstuv".utf8)
    /// 10 characters of 5 bits: 50 bits of milliseconds, enough for 35 000 years.
    static let timeCharacters = 10

    /// A fresh identifier such as `ch_0rj4d8u1k2…`, well formed for ``InputRules/isWellFormedID(_:prefix:)``.
    package static func make(prefix: String, at time: Date, random: any RandomSource) -> String {
        let milliseconds = UInt64(max(0, (time.timeIntervalSince1970 * 1000).rounded()))
        let timeText = (0..<timeCharacters).map { index in
            alphabet[Int((milliseconds >> UInt64(5 * (timeCharacters - 1 - index))) & 31)]
        }
        return "\(prefix)_\(String(decoding: timeText, as: UTF8.self))\(Base64URL.encode(random.bytes(16)))"
    }
}
