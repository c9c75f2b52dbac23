import Foundation

/// Personal facts in an audit entry: what says something about a person beyond the opaque ids
/// (the client's address, a passkey's name, a beneficiary's masked IBAN).
///
/// The audit duty (keep a complete, tamper-evident record of security events) and the right to
/// erasure pull apart: a hash chain over a person's address cannot lose the address. So an entry
/// keeps its personal facts beside the chain and puts only their keyed digest in it: the chain
/// hashes `personalDigest`, the facts themselves are stored as plain columns that erasure may
/// clear. What stays after erasure is the event, its time, its outcome and the user's opaque id;
/// the digest is an HMAC under a server subkey over the facts and the entry's time, so it can
/// neither be reversed nor linked across entries without that key.
extension AuditEntryDraft {
    /// The keys of ``details`` that hold personal facts.
    public static let personalDetailKeys: Set<String> = ["name", "iban"]

    /// The client's address and the personal details, keyed as in the entry's content
    /// (`clientAddress`, then the detail keys); empty when there is none.
    public var personalFacts: [String: String] {
        var facts = details.filter { Self.personalDetailKeys.contains($0.key) }
        if let clientAddress { facts["clientAddress"] = clientAddress }
        return facts
    }

    /// The details the chain hashes: all of them for an unsealed entry, the ones that are not
    /// personal for a sealed one.
    public var hashedDetails: [String: String] {
        personalDigest == nil ? details : details.filter { !Self.personalDetailKeys.contains($0.key) }
    }

    /// The address the chain hashes: none for a sealed entry.
    public var hashedClientAddress: String? {
        personalDigest == nil ? clientAddress : nil
    }

    /// The draft with ``personalDigest`` set from its facts, or unchanged when it has none.
    /// - Parameter mac: the keyed hash to use (the server's subkey for audit facts).
    public func sealingPersonalFacts(with mac: ([UInt8]) -> [UInt8]) -> AuditEntryDraft {
        let facts = personalFacts
        guard !facts.isEmpty else { return self }
        var sealed = self
        sealed.personalDigest = Self.digest(of: facts, time: time, mac: mac)
        return sealed
    }

    /// Whether the stored facts still match the digest the chain holds: true for an unsealed
    /// entry and for one whose facts were erased (nothing left to compare).
    public func personalFactsMatch(_ mac: ([UInt8]) -> [UInt8]) -> Bool {
        guard let personalDigest else { return true }
        let facts = personalFacts
        guard !facts.isEmpty else { return true }
        return ConstantTime.equals(Array(Self.digest(of: facts, time: time, mac: mac).utf8), Array(personalDigest.utf8))
    }

    /// The draft without its personal facts, as erasure leaves it. An unsealed entry is
    /// returned unchanged: its facts are in the chain, and removing them would break it.
    public func erasingPersonalFacts() -> AuditEntryDraft {
        guard personalDigest != nil else { return self }
        var erased = self
        erased.clientAddress = nil
        erased.details = hashedDetails
        return erased
    }

    /// HMAC over the RFC 8785 form of the facts and the entry's time, in lower-case hex. The
    /// time makes two entries with the same address carry different digests.
    static func digest(of facts: [String: String], time: Date, mac: ([UInt8]) -> [UInt8]) -> String {
        var members = facts.mapValues(JSONValue.string)
        members["time"] = .string(AuditEntry.rfc3339(time))
        return AuditEntry.hex(mac(JCS.canonicalize(.object(members))))
    }
}
