import Crypto
import Foundation
import SCACore
import Testing

/// The audit hash is computed over bytes now written directly (``AuditEntry/canonicalContent()``)
/// instead of through a `JSONValue` tree, with the time formatted by hand instead of by an
/// `ISO8601DateFormatter` per entry. Chains stored by earlier versions must still verify, so the
/// new bytes must be the old bytes exactly: these tests keep the old code (below, as it was)
/// and compare over many entries with odd strings, times and sequences.
@Suite("Audit entry canonical form")
struct AuditCanonicalFormTests {
    // MARK: The previous implementation, kept verbatim as the reference

    /// `AuditEntry.rfc3339` as it was: an `ISO8601DateFormatter` per call.
    static func legacyRFC3339(_ date: Date) -> String {
        let total = AuditEntry.milliseconds(date)
        let (seconds, millis) = total.quotientAndRemainder(dividingBy: 1000)
        let wholeSeconds = millis < 0 ? seconds - 1 : seconds
        let fraction = millis < 0 ? millis + 1000 : millis
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let base = formatter.string(from: Date(timeIntervalSince1970: Double(wholeSeconds)))
        let padded = String(fraction + 1000).dropFirst()
        return "\(base.dropLast())." + padded + "Z"
    }

    /// `AuditEntry.contentJSON` as it was.
    static func legacyContentJSON(_ entry: AuditEntry) -> JSONValue {
        let draft = entry.draft
        func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object([
            "sequence": .number(Double(entry.sequence)),
            "time": .string(legacyRFC3339(draft.time)),
            "event": .string(draft.event),
            "actor": .string(draft.actor),
            "userId": optional(draft.userID),
            "deviceId": optional(draft.deviceID),
            "challengeId": optional(draft.challengeID),
            "sessionId": optional(draft.sessionID),
            "clientAddress": optional(draft.clientAddress),
            "requestId": optional(draft.requestID),
            "outcome": .string(draft.outcome),
            "details": .object(draft.details.mapValues(JSONValue.string)),
            "prevHash": .string(entry.prevHash),
        ])
    }

    /// `AuditEntry.computedHash()` as it was: SHA-256 over the previous hash's bytes (its text
    /// when malformed) and `JCS.canonicalize(contentJSON)`.
    static func legacyHash(_ entry: AuditEntry) -> String {
        var hasher = SHA256()
        hasher.update(data: legacyBytes(hex: entry.prevHash) ?? Array(entry.prevHash.utf8))
        hasher.update(data: JCS.canonicalize(legacyContentJSON(entry)))
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    static func legacyBytes(hex: String) -> [UInt8]? {
        let characters = Array(hex.utf8)
        guard characters.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        var index = 0
        while index < characters.count {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    // MARK: Inputs

    /// Strings that exercise every escape, non-ASCII in each UTF-8 length, the UTF-16 ordering
    /// trap (U+FB33 before U+1F600 in UTF-16, after in scalars), combining marks, and plain ids.
    static let oddStrings: [String] = [
        "", " ", "a", "ch_4Jq9x", "client", "challenge.completed", "\"", "\\", "\"\\\"", "/", "</script>",
        "\u{0}", "\u{1}", "\u{8}", "\u{9}", "\u{A}", "\u{B}", "\u{C}", "\u{D}", "\u{1F}", "\u{20}", "\u{7F}", "\u{80}",
        "line\nbreak\r\n\ttab", "é", "e\u{301}", "ß", "€", "日本語", "😀", "\u{FB33}", "\u{FB33}😀", "\u{2028}\u{2029}",
        "\u{FEFF}", "\u{FFFF}", "\u{10FFFF}", "🇫🇷", "👩‍👩‍👧", "RLO\u{202E}evil", "null", "123", "-0", "1e21",
        "a\"b\\c\u{1}d\u{1F}e", String(repeating: "x", count: 300), "127.0.0.1", "::1", "2001:db8::1",
    ]

    /// Milliseconds since 1970 worth checking: the epoch, leap days, the ends of years and
    /// centuries, today, the far future, and the last millisecond of 9999; before 1970 too.
    static let boundaryMilliseconds: [Int64] = [
        0, 1, 999, 1000, 86_399_999, 86_400_000, 68_169_599_999, 68_169_600_000,  // 1972-02-29/03-01
        946_684_799_999, 946_684_800_000, 951_782_400_000, 951_868_799_999,  // 2000-01-01, 2000-02-29
        1_798_761_599_999, 1_795_132_606_123, 4_102_444_799_999, 4_107_542_400_000,  // 2026, 2099-12-31, 2100-03-01
        253_402_300_799_999, 253_402_300_800_000,  // the last millisecond of 9999, then 10000
        -1, -999, -1000, -1001, -86_400_000, -2_208_988_800_000,  // before 1970 (the formatter's path)
    ]

    static func entries(count: Int, seed: UInt64) -> [AuditEntry] {
        var random = SplitMix(state: seed)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        func maybe(_ values: [String]) -> String? { random.next() % 3 == 0 ? nil : pick(values) }
        var result: [AuditEntry] = []
        let sequences: [Int64] = [1, 2, 9, 10, 99, 100, 1_000_000, 1 << 53, (1 << 53) + 1, Int64.max, 123_456_789_012]
        let hashes = [AuditEntry.genesisHash, String(repeating: "ab", count: 32), "xyz", "ABCDEF", "0"]
        for index in 0..<count {
            let milliseconds: Int64 =
                index < boundaryMilliseconds.count
                ? boundaryMilliseconds[index]
                // Uniform over 1970 to 9999.
                : Int64(random.next() % 253_402_300_800_000)
            var details: [String: String] = [:]
            for _ in 0..<Int(random.next() % 5) { details[pick(oddStrings)] = pick(oddStrings) }
            let draft = AuditEntryDraft(
                time: AuditEntry.date(millisecondsSince1970: milliseconds), event: pick(oddStrings), actor: pick(oddStrings),
                userID: maybe(oddStrings), deviceID: maybe(oddStrings), challengeID: maybe(oddStrings),
                sessionID: maybe(oddStrings), clientAddress: maybe(oddStrings), requestID: maybe(oddStrings),
                outcome: pick(oddStrings), details: details)
            let sequence = index % 4 == 0 ? pick(sequences) : Int64(index + 1)
            result.append(AuditEntry(sequence: sequence, draft: draft, prevHash: pick(hashes)))
        }
        return result
    }

    // MARK: Tests

    @Test("the bytes written directly are the bytes of the JCS tree the previous version hashed")
    func canonicalBytesMatchTheLegacyForm() {
        for entry in Self.entries(count: 5_000, seed: 0x5CA_2026) {
            let legacy = JCS.canonicalize(Self.legacyContentJSON(entry))
            #expect(entry.canonicalContent() == legacy, "\(String(decoding: legacy, as: UTF8.self))")
            // The export goes through contentJSON, whose time is now written by hand too.
            #expect(JCS.canonicalize(entry.contentJSON) == legacy)
        }
    }

    @Test("each hash is the hash the previous version computed, so stored chains still verify")
    func hashesMatchTheLegacyHashes() {
        for entry in Self.entries(count: 2_000, seed: 42) {
            #expect(entry.hash == Self.legacyHash(entry))
            #expect(entry.computedHash() == Self.legacyHash(entry))
        }
    }

    @Test("the parts a store links with rebuild the hash: previous hash bytes, head, quoted previous hash, middle, digits, tail")
    func partsRebuildTheHash() {
        for entry in Self.entries(count: 2_000, seed: 2027) where entry.sequence <= 1 << 53 {
            // What PostgreSQL computes under the audit lock, with only hex previous hashes.
            let hex = Array(entry.prevHash.utf8)
            guard hex.count == 64 else { continue }
            let previous = stride(from: 0, to: 64, by: 2).compactMap { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16) }
            guard previous.count == 32 else { continue }
            let parts = AuditEntry.canonicalParts(of: entry.draft)
            var hashed = previous + parts.head
            hashed += Array("\"\(entry.prevHash)\"".utf8) + parts.middle + Array(String(entry.sequence).utf8) + parts.tail
            #expect(SHA256.hash(data: hashed).map { String(format: "%02x", $0) }.joined() == entry.hash)
            #expect(parts.head.last == UInt8(ascii: ":") && parts.middle.first == UInt8(ascii: ","))
        }
    }

    @Test("a chain written with the previous hashes verifies, and an edited entry still breaks it")
    func legacyChainVerifies() throws {
        var chain: [AuditEntry] = []
        var previous = AuditEntry.genesisHash
        for (index, entry) in Self.entries(count: 300, seed: 7).enumerated() {
            // As an older version stored it: its own sequence and prevHash, the legacy hash.
            var stored = AuditEntry(sequence: Int64(index + 1), draft: entry.draft, prevHash: previous, hash: "")
            stored.hash = Self.legacyHash(stored)
            chain.append(stored)
            previous = stored.hash
        }
        #expect(AuditChainVerifier.verify(chain) == nil)
        var edited = chain
        edited[150].draft.outcome += "!"
        #expect(AuditChainVerifier.verify(edited) != nil)
    }

    @Test("the time is the formatter's text for every millisecond of sampled days across the range")
    func timeTextMatchesTheFormatter() {
        var random = SplitMix(state: 99)
        for _ in 0..<20_000 {
            let milliseconds = Int64(random.next() % 253_402_300_800_000)
            let date = AuditEntry.date(millisecondsSince1970: milliseconds)
            let draft = AuditEntryDraft(time: date, event: "e", actor: "a", outcome: "o")
            let entry = AuditEntry(sequence: 1, draft: draft, prevHash: AuditEntry.genesisHash)
            guard case .object(let members) = entry.contentJSON, case .string(let time) = members["time"] else {
                Issue.record("no time member")
                return
            }
            // The draft holds the time as stored (whole milliseconds), as the legacy code saw it.
            #expect(time == Self.legacyRFC3339(draft.time))
        }
    }
}

/// A small seeded generator, so that a failure names inputs that come back on every run.
struct SplitMix {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
