import Crypto
import Foundation

/// One link of the append-only audit trail (RTS art. 29: traceability of every security
/// event).
///
/// Entries form a hash chain: `hash = SHA-256(prevHash || canonicalContent)`, where
/// `prevHash` is the 32 bytes of the previous entry's hash (32 zero bytes before the first
/// entry) and `canonicalContent` is the RFC 8785 (JCS) serialization of ``contentJSON``, the
/// entry without its own hash. Editing, deleting or reordering a stored entry breaks the
/// chain at that point; ``AuditChainVerifier`` names where.
public struct AuditEntry: Sendable, Equatable {
    /// 1 for the first entry, then each entry the previous one's plus one.
    public var sequence: Int64
    public var draft: AuditEntryDraft
    /// The previous entry's ``hash`` (``genesisHash`` for the first), lower-case hex.
    public var prevHash: String
    /// SHA-256 over `prevHash` and the canonical content, lower-case hex.
    public var hash: String

    /// The `prevHash` of entry 1: 32 zero bytes.
    public static let genesisHash = String(repeating: "0", count: 64)

    /// The entry that follows `prevHash` at `sequence`, with its hash computed.
    public init(sequence: Int64, draft: AuditEntryDraft, prevHash: String) {
        self.sequence = sequence
        self.draft = draft
        self.prevHash = prevHash
        self.hash = ""
        self.hash = computedHash()
    }

    /// The entry that follows `prevHash` at `sequence`, its hash computed from its draft's
    /// ``canonicalParts(of:)`` already made (a store that sent them to be linked).
    public init(sequence: Int64, draft: AuditEntryDraft, prevHash: String, parts: CanonicalParts) {
        self.sequence = sequence
        self.draft = draft
        self.prevHash = prevHash
        self.hash = ""
        self.hash = computedHash(parts)
    }

    /// An entry as stored, hash included (not recomputed: the verifier compares).
    public init(sequence: Int64, draft: AuditEntryDraft, prevHash: String, hash: String) {
        self.sequence = sequence
        self.draft = draft
        self.prevHash = prevHash
        self.hash = hash
    }

    /// The hash this entry's content and `prevHash` call for.
    public func computedHash() -> String {
        computedHash(Self.canonicalParts(of: draft))
    }

    private func computedHash(_ parts: CanonicalParts) -> String {
        var hasher = SHA256()
        // A malformed stored prevHash still hashes (as its text), so it fails the comparison
        // instead of trapping.
        hasher.update(data: Self.bytes(hex: prevHash) ?? Array(prevHash.utf8))
        hasher.update(data: canonicalContent(parts))
        return Self.hex(hasher.finalize())
    }

    /// The RFC 8785 bytes of ``contentJSON``, written directly: the members in their fixed
    /// canonical order, no `JSONValue` tree, no dictionary sort but the details'. Byte for byte
    /// what `JCS.canonicalize(contentJSON)` gives (a test holds them equal over odd strings,
    /// times and sequences), so chains written by earlier versions still verify.
    public func canonicalContent() -> [UInt8] {
        canonicalContent(Self.canonicalParts(of: draft))
    }

    private func canonicalContent(_ parts: CanonicalParts) -> [UInt8] {
        var output = parts.head
        output.reserveCapacity(parts.head.count + parts.middle.count + parts.tail.count + 96)
        JCS.appendString(prevHash, to: &output)
        output.append(contentsOf: parts.middle)
        // As a JSON number: exact integers print as their digits; beyond 2^53 the number is the
        // double's, as in `contentJSON`.
        if sequence.magnitude <= 1 << 53 {
            output.append(contentsOf: String(sequence).utf8)
        } else {
            output.append(contentsOf: JCS.serialize(number: Double(sequence)).utf8)
        }
        output.append(contentsOf: parts.tail)
        return output
    }

    /// ``canonicalContent()`` cut around the two members that depend on the chain's head, so
    /// that a store can link an entry where it reads the head, under the lock that serialises
    /// appends (PostgreSQL links in the same statement): the content is `head`, `prevHash` as a
    /// JSON string, `middle`, the sequence in decimal digits (up to 2^53), then `tail`.
    public struct CanonicalParts: Sendable, Equatable {
        /// Up to `"prevHash":`.
        public var head: [UInt8]
        /// From the comma after `prevHash` to `"sequence":`.
        public var middle: [UInt8]
        /// From the comma after the sequence to the closing brace.
        public var tail: [UInt8]
    }

    /// The parts of a draft's canonical content that do not depend on where it lands.
    public static func canonicalParts(of draft: AuditEntryDraft) -> CanonicalParts {
        // Member names in UTF-16 order (RFC 8785 §3.2.3), fixed because the names are.
        var writer = CanonicalWriter()
        writer.bytes.reserveCapacity(512)
        writer.bytes.append(UInt8(ascii: "{"))
        writer.member("actor", first: true)
        writer.string(draft.actor)
        writer.member("challengeId")
        writer.optional(draft.challengeID)
        writer.member("clientAddress")
        writer.optional(draft.hashedClientAddress)
        writer.member("details")
        JCS.appendObject(draft.hashedDetails, to: &writer.bytes)
        writer.member("deviceId")
        writer.optional(draft.deviceID)
        writer.member("event")
        writer.string(draft.event)
        writer.member("outcome")
        writer.string(draft.outcome)
        // Present only on sealed entries, so entries written before keep their content.
        if let digest = draft.personalDigest {
            writer.member("personal")
            writer.string(digest)
        }
        writer.member("prevHash")
        let head = writer.take()
        writer.member("requestId")
        writer.optional(draft.requestID)
        writer.member("sequence")
        let middle = writer.take()
        writer.member("sessionId")
        writer.optional(draft.sessionID)
        writer.member("time")
        writer.string(rfc3339(draft.time))
        writer.member("userId")
        writer.optional(draft.userID)
        writer.bytes.append(UInt8(ascii: "}"))
        return CanonicalParts(head: head, middle: middle, tail: writer.take())
    }

    /// The bytes of ``canonicalParts(of:)`` as they are written. A value with mutating methods,
    /// not nested functions over a local array: a captured local is boxed, and every append
    /// through the box paid a dynamic exclusivity check.
    private struct CanonicalWriter {
        var bytes: [UInt8] = []

        mutating func member(_ name: StaticString, first: Bool = false) {
            if !first { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            bytes.append(UInt8(ascii: "\""))
            bytes.append(UInt8(ascii: ":"))
        }

        mutating func string(_ value: String) {
            JCS.appendString(value, to: &bytes)
        }

        mutating func optional(_ value: String?) {
            if let value { JCS.appendString(value, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
        }

        /// The bytes so far, leaving the writer empty for the next part.
        mutating func take() -> [UInt8] {
            defer { bytes = [] }
            return bytes
        }
    }

    /// The entry without its hash, as the chain hashes it. Absent ids are `null`; `time` is
    /// RFC 3339 UTC with milliseconds; a sealed entry has `personal` (the digest of its personal
    /// facts) and neither its address nor its personal details.
    package var contentJSON: JSONValue {
        func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        var members: [String: JSONValue] = [
            "sequence": .number(Double(sequence)),
            "time": .string(Self.rfc3339(draft.time)),
            "event": .string(draft.event),
            "actor": .string(draft.actor),
            "userId": optional(draft.userID),
            "deviceId": optional(draft.deviceID),
            "challengeId": optional(draft.challengeID),
            "sessionId": optional(draft.sessionID),
            "clientAddress": optional(draft.hashedClientAddress),
            "requestId": optional(draft.requestID),
            "outcome": .string(draft.outcome),
            "details": .object(draft.hashedDetails.mapValues(JSONValue.string)),
            "prevHash": .string(prevHash),
        ]
        if let digest = draft.personalDigest { members["personal"] = .string(digest) }
        return .object(members)
    }

    /// ``contentJSON`` with `hash` added: one line of an export, from which anyone can
    /// recompute the chain. A sealed entry's facts that were not erased travel beside it under
    /// `personalFacts`, which the hash does not cover (drop it, and `hash`, to recompute).
    package var exportJSON: JSONValue {
        guard case .object(var members) = contentJSON else { return contentJSON }
        members["hash"] = .string(hash)
        if draft.personalDigest != nil, case let facts = draft.personalFacts, !facts.isEmpty {
            members["personalFacts"] = .object(facts.mapValues(JSONValue.string))
        }
        return .object(members)
    }

    // MARK: Encodings

    /// Whole milliseconds since 1970, the stored form of the time.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    public static func date(millisecondsSince1970 milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// `2026-11-21T07:56:46.123Z`, built from whole milliseconds so that the text never
    /// depends on floating-point rounding.
    ///
    /// Written by hand (proleptic Gregorian calendar, UTC) for the years 1970 to 9999: a
    /// formatter made per entry cost more than the rest of an append. Other instants, which no
    /// server clock gives, keep the formatter's text.
    package static func rfc3339(_ date: Date) -> String {
        let total = milliseconds(date)
        let (seconds, millis) = total.quotientAndRemainder(dividingBy: 1000)
        let wholeSeconds = millis < 0 ? seconds - 1 : seconds
        let fraction = millis < 0 ? millis + 1000 : millis
        guard (0...253_402_300_799).contains(wholeSeconds) else {
            return formatterRFC3339(wholeSeconds: wholeSeconds, fraction: fraction)
        }
        let (days, secondOfDay) = wholeSeconds.quotientAndRemainder(dividingBy: 86_400)
        let date = CivilDate(daysSince1970: days)
        let (year, month, day) = (date.year, date.month, date.day)
        var text: [UInt8] = []
        text.reserveCapacity(24)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        text.append(UInt8(ascii: "-"))
        digits(month, 2)
        text.append(UInt8(ascii: "-"))
        digits(day, 2)
        text.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2)
        text.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2)
        text.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        text.append(UInt8(ascii: "."))
        digits(fraction, 3)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// The formatter's text, for instants outside the years written by hand.
    static func formatterRFC3339(wholeSeconds: Int64, fraction: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let base = formatter.string(from: Date(timeIntervalSince1970: Double(wholeSeconds)))
        let padded = String(fraction + 1000).dropFirst()
        return "\(base.dropLast())." + padded + "Z"
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func bytes(hex: String) -> [UInt8]? {
        let characters = Array(hex.utf8)
        guard characters.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
