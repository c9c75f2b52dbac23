import Foundation
import SCACore
import Testing

@Suite("Time-ordered identifiers")
struct TimeOrderedIDTests {
    @Test("identifiers sort bytewise as their times do, whatever their random part")
    func sortsByTime() {
        let random = SystemRandom()
        let times = [0, 1, 31, 32, 999, 1_000, 1_764_000_000_000, 1_764_000_000_001, 1_764_000_060_000, 35_000 * 365 * 86_400 * 1_000]
            .map { Date(timeIntervalSince1970: Double($0) / 1000) }
        let identifiers = times.map { TimeOrderedID.make(prefix: "ch", at: $0, random: random) }
        // SQLite's BINARY collation and PostgreSQL's "C" order: byte by byte.
        #expect(identifiers.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } == identifiers)
        #expect(Set(identifiers).count == identifiers.count)
    }

    @Test("the time part is the milliseconds in 5-bit characters, then 16 random bytes in base64url")
    func layout() {
        struct Fixed: RandomSource {
            func bytes(_ count: Int) -> [UInt8] { Array(repeating: 0xFF, count: count) }
        }
        let id = TimeOrderedID.make(prefix: "ses", at: Date(timeIntervalSince1970: 1_764_000_000.123), random: Fixed())
        var milliseconds: UInt64 = 1_764_000_000_123
        var expected = ""
        for _ in 0..<10 {
            expected = String(Array("0123456789abcdefghijklmnopqrstuv")[Int(milliseconds & 31)]) + expected
            milliseconds >>= 5
        }
        #expect(id == "ses_" + expected + String(repeating: "_", count: 21) + "w")
        #expect(id.utf8.count == 4 + 10 + 22)
        #expect(InputRules.isWellFormedID(id, prefix: "ses"))
        // A time before 1970 (a clock gone wrong) gives the smallest time, not a crash.
        #expect(TimeOrderedID.make(prefix: "ch", at: Date(timeIntervalSince1970: -5), random: Fixed()).hasPrefix("ch_0000000000"))
    }
}
