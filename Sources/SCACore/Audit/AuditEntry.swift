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

    /// An entry as stored, hash included (not recomputed: the verifier compares).
    public init(sequence: Int64, draft: AuditEntryDraft, prevHash: String, hash: String) {
        self.sequence = sequence
        self.draft = draft
        self.prevHash = prevHash
        self.hash = hash
    }

    /// The hash this entry's content and `prevHash` call for.
    public func computedHash() -> String {
        var hasher = SHA256()
        // A malformed stored prevHash still hashes (as its text), so it fails the comparison
        // instead of trapping.
        hasher.update(data: Self.bytes(hex: prevHash) ?? Array(prevHash.utf8))
        hasher.update(data: canonicalContent())
        return Self.hex(Array(hasher.finalize()))
    }

    /// The RFC 8785 bytes of ``contentJSON``.
    public func canonicalContent() -> [UInt8] {
        JCS.canonicalize(contentJSON)
    }

    /// The entry without its hash. Absent ids are `null`; `time` is RFC 3339 UTC with
    /// milliseconds.
    public var contentJSON: JSONValue {
        func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object([
            "sequence": .number(Double(sequence)),
            "time": .string(Self.rfc3339(draft.time)),
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
            "prevHash": .string(prevHash),
        ])
    }

    /// ``contentJSON`` with `hash` added: one line of an export, from which anyone can
    /// recompute the chain.
    public var exportJSON: JSONValue {
        guard case .object(var members) = contentJSON else { return contentJSON }
        members["hash"] = .string(hash)
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
    static func rfc3339(_ date: Date) -> String {
        let total = milliseconds(date)
        let (seconds, millis) = total.quotientAndRemainder(dividingBy: 1000)
        let wholeSeconds = millis < 0 ? seconds - 1 : seconds
        let fraction = millis < 0 ? millis + 1000 : millis
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let base = formatter.string(from: Date(timeIntervalSince1970: Double(wholeSeconds)))
        let padded = String(fraction + 1000).dropFirst()
        return "\(base.dropLast())." + padded + "Z"
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
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
