import Crypto
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import SCACore
import SCAEngine
import SCAStorage
import Testing

/// Retention on the test clock, through the real routes and the SQLite store: what ended is
/// purged, the database stops growing under a steady load, and the audit trail's oldest part
/// leaves for an archive with a signed checkpoint at the cut, the rest still proving whole.
@Suite("Retention and the audit archive")
struct RetentionTests {
    static let day: TimeInterval = 86_400

    /// A login whose challenge comes from `address` (through the trusted proxy header).
    static func logIn(_ api: APIClient, _ email: String, _ totp: TOTP, from address: String = "198.51.100.7") async throws {
        let body = try WireJSON.encoder().encode(CreateChallengeRequest(operation: .login, user: UserReference(email: email)))
        let response = try await api.client.execute(
            uri: "/v1/challenges", method: .post,
            headers: [.contentType: "application/json", HTTPField.Name("X-Forwarded-For")!: address],
            body: ByteBuffer(bytes: body))
        #expect(response.status == .created)
        let challenge = try WireJSON.decoder().decode(ChallengeResponse.self, from: Data(buffer: response.body))
        #expect(try await api.prove(challenge.challengeId, .password, "correct horse battery").status == 200)
        #expect(try await api.prove(challenge.challengeId, .totp, totp.code(at: api.clock.now())).status == 200)
    }

    /// Live pages of the SQLite file times its page size: what the data takes, whatever the
    /// file's free pages waiting for reuse.
    static func liveBytes(_ api: APIClient) throws -> Int {
        let reader = try DatabaseQueue(path: api.services.configuration.databasePath)
        return try reader.read { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            let size = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return (pages - free) * size
        }
    }

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.trustedProxyHeader = "X-Forwarded-For"
        configuration.retention.challenges = day
        configuration.retention.sessions = day
        configuration.retention.audit = 30 * day
    }

    @Test("under a steady load of logins, the database stops growing once retention reaches its ages (measured in live pages)")
    func databaseStopsGrowing() async throws {
        try await TestServer(Self.configure).run { api in
            let totp = try await api.enrollTOTP(try await api.createUser("steady@example.com"))
            var sizes: [Int] = []
            for _ in 0..<50 {
                for _ in 0..<8 {
                    try await Self.logIn(api, "steady@example.com", totp)
                    api.clock.advance(by: 31)
                }
                api.clock.advance(by: Self.day)
                try await api.services.engine.retention.pass()
                sizes.append(try Self.liveBytes(api))
            }
            // Growing for the first 30 days (the audit trail is kept that long), then flat:
            // the last ten days no larger than the ten before them.
            #expect(sizes[29] > sizes[4], "the store grows while nothing has reached its age: \(sizes)")
            let late = sizes[40...].max() ?? 0
            let earlier = sizes[30..<40].max() ?? 0
            #expect(late <= earlier + earlier / 20, "live bytes by day: \(sizes)")
            let status = try await api.services.engine.auditCheckpoints.check(against: nil)
            #expect(status.isIntact)
            #expect((status.archived?.throughSequence ?? 0) > 0)
        }
    }

    @Test("the audit trail is archived and cut at its age; the kept part verifies from the cut, the archive verifies up to the cut's signed checkpoint")
    func auditArchiveAndCut() async throws {
        try await TestServer(Self.configure).run { api in
            let totp = try await api.enrollTOTP(try await api.createUser("archive@example.com"))
            for _ in 0..<3 {
                try await Self.logIn(api, "archive@example.com", totp)
                api.clock.advance(by: 31)
            }
            let before = try await api.services.engine.auditCheckpoints.take()
            let headBefore = try #require(try await api.services.store.newestAuditEntry())
            // Nothing is old enough yet.
            #expect(try await api.services.engine.retention.archiveAudit() == nil)
            api.clock.advance(by: 31 * Self.day)
            try await Self.logIn(api, "archive@example.com", totp)

            let cut = try #require(try await api.services.engine.retention.archiveAudit())
            #expect(cut.throughSequence == headBefore.sequence)
            let kept = try await api.services.store.auditEntries(after: 0, limit: 1_000)
            #expect(kept.first?.sequence == cut.throughSequence + 1)
            #expect(kept.first?.prevHash == headBefore.hash)
            let audited = try #require(kept.last { $0.draft.event == "audit.archived" })
            #expect(audited.draft.details["through"] == "\(cut.throughSequence)")

            // What stays proves whole from the cut; a checkpoint taken before the cut, of the
            // entry where it was cut, still matches.
            let status = try await api.services.engine.auditCheckpoints.check(against: before.jws)
            #expect(status.isIntact, "\(status)")
            #expect(status.archived?.throughSequence == cut.throughSequence)
            #expect(status.intactEntries == Int64(kept.count))

            // The archive: every line recomputes its hash from the one before, from the first
            // entry, and the last is the entry the cut's signed checkpoint names.
            let directory = URL(fileURLWithPath: api.services.configuration.auditArchiveDirectory)
            let text = try String(contentsOf: directory.appendingPathComponent(cut.archive), encoding: .utf8)
            let lines = text.split(separator: "\n")
            #expect(lines.count == Int(cut.throughSequence))
            var previous = AuditEntry.genesisHash
            for line in lines {
                guard case .object(var members) = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)),
                    case .string(let hash)? = members.removeValue(forKey: "hash")
                else {
                    Issue.record("an archive line is not an entry: \(line)")
                    return
                }
                members.removeValue(forKey: "personalFacts")
                #expect(members["prevHash"] == .string(previous))
                var hasher = SHA256()
                hasher.update(data: try #require(Self.bytes(hex: previous)))
                hasher.update(data: JCS.canonicalize(.object(members)))
                #expect(hasher.finalize().map { String(format: "%02x", $0) }.joined() == hash)
                previous = hash
            }
            let signed = try String(contentsOf: directory.appendingPathComponent(cut.archive + ".checkpoint"), encoding: .utf8)
            let vouched = try api.services.engine.auditCheckpoints.verify(signed)
            #expect(vouched.sequence == cut.throughSequence && vouched.hash == previous)
            // The cut's statement binds the archive file too.
            let archived = try Data(contentsOf: directory.appendingPathComponent(cut.archive))
            #expect(vouched.archiveDigest == SHA256.hash(data: archived).map { String(format: "%02x", $0) }.joined())
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(cut.archive + ".partial").path))

            // A second pass finds nothing older to archive.
            #expect(try await api.services.engine.retention.archiveAudit() == nil)
        }
    }

    @Test("a cut whose recorded hash was rewritten is refused by the verification")
    func forgedCutIsRefused() async throws {
        try await TestServer(Self.configure).run { api in
            let totp = try await api.enrollTOTP(try await api.createUser("forged@example.com"))
            try await Self.logIn(api, "forged@example.com", totp)
            api.clock.advance(by: 31 * Self.day)
            try await Self.logIn(api, "forged@example.com", totp)
            let cut = try #require(try await api.services.engine.retention.archiveAudit())
            let writer = try DatabaseQueue(path: api.services.configuration.databasePath)
            try await writer.write { db in
                try db.execute(
                    sql: "UPDATE audit_cuts SET hash = ? WHERE through_sequence = ?",
                    arguments: [String(repeating: "a", count: 64), cut.throughSequence])
            }
            let status = try await api.services.engine.auditCheckpoints.check(against: nil)
            #expect(!status.isIntact)
            #expect(status.brokenAt == cut.throughSequence + 1)
        }
    }

    @Test("a cut forged from a periodic checkpoint (entries deleted without an archive) is refused by the verification")
    func cutForgedFromAPeriodicCheckpoint() async throws {
        try await TestServer(Self.configure).run { api in
            let totp = try await api.enrollTOTP(try await api.createUser("forger@example.com"))
            try await Self.logIn(api, "forger@example.com", totp)
            // A legitimate periodic checkpoint, as `auditCheckpointFile` holds one.
            let (checkpoint, jws) = try await api.services.engine.auditCheckpoints.take()
            api.clock.advance(by: 31)
            try await Self.logIn(api, "forger@example.com", totp)
            let writer = try DatabaseQueue(path: api.services.configuration.databasePath)
            try await writer.write { db in
                try db.execute(
                    sql: "INSERT INTO audit_cuts (through_sequence, hash, checkpoint, archive, cut_at) VALUES (?, ?, ?, 'none', 0)",
                    arguments: [checkpoint.sequence, checkpoint.hash, jws])
                try db.execute(sql: "DELETE FROM audit_entries WHERE sequence <= ?", arguments: [checkpoint.sequence])
            }
            let status = try await api.services.engine.auditCheckpoints.check(against: nil)
            #expect(!status.isIntact)
            #expect(status.broken?.contains("not vouched for") == true)
        }
    }

    @Test("a purge pass takes ended challenges and sessions, keeps a young session's and the user's, and is audited")
    func purgeIsAudited() async throws {
        try await TestServer(Self.configure).run { api in
            let totp = try await api.enrollTOTP(try await api.createUser("purge@example.com"))
            try await Self.logIn(api, "purge@example.com", totp)
            #expect(try await api.services.engine.retention.purge().total == 0)
            api.clock.advance(by: 2 * Self.day)
            let report = try await api.services.engine.retention.purge()
            #expect(report.challenges == 1)
            #expect(report.sessions == 1)
            let entry = try #require(try await api.services.store.newestAuditEntry())
            #expect(entry.draft.event == "retention.purged")
            #expect(entry.draft.details["challenges"] == "1")
            #expect(try await api.services.store.user(email: "purge@example.com") != nil)
            // The user signs in as before.
            try await Self.logIn(api, "purge@example.com", totp)
        }
    }

    static func bytes(hex: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
