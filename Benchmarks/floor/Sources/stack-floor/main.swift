import Foundation
import GRDB
import Hummingbird

/// The least a server on sca-server's stack does for `POST /v1/challenges`, so that what the stack
/// costs can be told from what sca-server adds to it: Hummingbird's HTTP/1.1 server with no
/// middleware, the JSON body collected and decoded with Foundation's decoder, one read transaction
/// (the user and the device by their keys), one write transaction (the challenge and its audit
/// entry, in tables indexed as sca-server's are, so that a commit writes the same eight pages to
/// the WAL), and the answer written out by hand. No risk decision, rate limit, metric, log line,
/// audit chain or sealing. `GET /health/live` answers as sca-server's does. `POST /floor/decode`
/// and `POST /floor/read` take the same body and stop after decoding it or after the read.
///
///     stack-floor PORT DATA_DIRECTORY
///
/// Users `usr_floor_0` … `usr_floor_7`, each with the device `dev_floor_N`, are made at start.

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: stack-floor PORT DATA_DIRECTORY\n".utf8))
    exit(64)
}
try FileManager.default.createDirectory(atPath: arguments[2], withIntermediateDirectories: true)

var configuration = Configuration()
configuration.prepareDatabase { db in
    // As sca-server's default: a commit is durable at the next checkpoint, not synced each time.
    try db.execute(sql: "PRAGMA synchronous = NORMAL")
}
let pool = try DatabasePool(path: arguments[2] + "/floor.sqlite", configuration: configuration)
try pool.writeHere { db in
    try db.execute(sql: """
        CREATE TABLE IF NOT EXISTS users (id TEXT PRIMARY KEY NOT NULL, email TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS devices (
            id TEXT PRIMARY KEY NOT NULL, user_id TEXT NOT NULL, public_key BLOB NOT NULL);
        CREATE INDEX IF NOT EXISTS devices_user_id ON devices (user_id);
        CREATE TABLE IF NOT EXISTS challenges (
            id TEXT PRIMARY KEY NOT NULL, user_id TEXT, operation TEXT NOT NULL,
            verdict TEXT NOT NULL, required_categories INTEGER NOT NULL, methods TEXT NOT NULL,
            nonce TEXT NOT NULL, device_id TEXT, state TEXT NOT NULL,
            accepted_methods TEXT NOT NULL, rejected_methods TEXT NOT NULL,
            failed_attempts INTEGER NOT NULL DEFAULT 0, created_at REAL NOT NULL,
            expires_at REAL NOT NULL, version INTEGER NOT NULL);
        CREATE INDEX IF NOT EXISTS challenges_user_id ON challenges (user_id);
        CREATE INDEX IF NOT EXISTS challenges_expires_at ON challenges (expires_at);
        CREATE TABLE IF NOT EXISTS audit_entries (
            sequence INTEGER PRIMARY KEY NOT NULL, time_ms INTEGER NOT NULL, event TEXT NOT NULL,
            actor TEXT NOT NULL, user_id TEXT, device_id TEXT, challenge_id TEXT,
            client_address TEXT, request_id TEXT, outcome TEXT NOT NULL, details TEXT NOT NULL,
            prev_hash TEXT NOT NULL, hash TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS audit_entries_time ON audit_entries (time_ms);
        CREATE INDEX IF NOT EXISTS audit_entries_user ON audit_entries (user_id, sequence)
            WHERE user_id IS NOT NULL;
        CREATE INDEX IF NOT EXISTS audit_entries_event ON audit_entries (event, sequence);
        """)
    for index in 0..<8 {
        try db.execute(
            sql: "INSERT OR IGNORE INTO users (id, email) VALUES (?, ?)",
            arguments: ["usr_floor_\(index)", "floor\(index)@example.com"])
        try db.execute(
            sql: "INSERT OR IGNORE INTO devices (id, user_id, public_key) VALUES (?, ?, ?)",
            arguments: ["dev_floor_\(index)", "usr_floor_\(index)", Data(repeating: 4, count: 65)])
    }
}

struct ChallengeRequest: Decodable {
    struct User: Decodable { let userId: String }
    struct Device: Decodable { let deviceId: String }
    let operation: String
    let user: User
    let device: Device
}

enum RandomText {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `count` random bytes (a multiple of 3) in base64url, as sca-server writes its ids and
    /// nonces: one call to the kernel's generator for all of them.
    static func make(_ count: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, count) }
        var text = [UInt8]()
        text.reserveCapacity(count / 3 * 4)
        for start in stride(from: 0, to: count, by: 3) {
            let chunk = UInt32(bytes[start]) << 16 | UInt32(bytes[start + 1]) << 8 | UInt32(bytes[start + 2])
            for shift in [18, 12, 6, 0] { text.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Runs store work on the calling thread, as sca-server's store does (GRDB's async forms run it
/// on the connection's queue and resume the caller on the concurrency pool: two wake-ups more).
extension DatabasePool {
    func readHere<T>(_ body: (Database) throws -> T) throws -> T { try read(body) }
    func writeHere<T>(_ body: (Database) throws -> T) throws -> T { try write(body) }
}

/// The challenge, or its first steps alone, so that the script can tell what each step adds.
struct FloorChallenge: Sendable {
    enum Step { case decode, read, write }

    let pool: DatabasePool
    let decoder = JSONDecoder()

    /// Collects and decodes the body, then (past `.decode`) reads the user and the device, then
    /// (at `.write`) commits the challenge and its audit entry; answers as sca-server does.
    func answer(_ request: Request, through last: Step) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        let challenge = try decoder.decode(ChallengeRequest.self, from: Data(buffer: body))
        if last != .decode {
            let found = try pool.readHere { db in
                let user = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM users WHERE id = ?)")
                let device = try db.cachedStatement(sql: "SELECT public_key FROM devices WHERE id = ? AND user_id = ?")
                return try Bool.fetchOne(user, arguments: [challenge.user.userId]) == true
                    && Data.fetchOne(device, arguments: [challenge.device.deviceId, challenge.user.userId]) != nil
            }
            guard found else { return Response(status: .notFound) }
        }
        let id = "ch_" + RandomText.make(24)
        let nonce = RandomText.make(33)
        let now = Date()
        let expires = now.addingTimeInterval(300)
        if last == .write {
            let requestID = RandomText.make(24)
            // sca-server's audit entry carries its chain's two SHA-256 digests in hex.
            let hash = String(repeating: "0", count: 64)
            try pool.writeHere { db in
                try db.cachedStatement(sql: """
                    INSERT INTO challenges (id, user_id, operation, verdict, required_categories, methods,
                        nonce, device_id, state, accepted_methods, rejected_methods, created_at, expires_at, version)
                    VALUES (?, ?, ?, 'deferred', 2, '["device_key","biometric_key"]', ?, ?, 'pending', '[]', '[]', ?, ?, 0)
                    """).execute(arguments: [
                        id, challenge.user.userId, challenge.operation, nonce, challenge.device.deviceId,
                        now.timeIntervalSince1970, expires.timeIntervalSince1970,
                    ])
                try db.cachedStatement(sql: """
                    INSERT INTO audit_entries (time_ms, event, actor, user_id, device_id, challenge_id,
                        client_address, request_id, outcome, details, prev_hash, hash)
                    VALUES (?, 'challenge.created', 'client', ?, ?, ?, '127.0.0.1', ?, 'success',
                        '{"operation":"login","requiredCategories":"2"}', ?, ?)
                    """).execute(arguments: [
                        Int64(now.timeIntervalSince1970 * 1000), challenge.user.userId,
                        challenge.device.deviceId, id, requestID, hash, hash,
                    ])
            }
        }
        let answer = """
            {"challengeId":"\(id)","expiresAt":"\(expires.ISO8601Format())","methods":[{"category":"possession","id":"device_key"},\
            {"category":"inherence","id":"biometric_key"}],"nonce":"\(nonce)","operation":"\(challenge.operation)",\
            "requiredCategories":2,"satisfiedCategories":[],"state":"pending","verdict":"deferred"}
            """
        return Response(
            status: .created, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: answer)))
    }
}

let challenges = FloorChallenge(pool: pool)
let router = Router()
router.get("/health/live") { _, _ in
    Response(
        status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
        body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
}
router.post("/v1/challenges") { request, _ in try await challenges.answer(request, through: .write) }
router.post("/floor/read") { request, _ in try await challenges.answer(request, through: .read) }
router.post("/floor/decode") { request, _ in try await challenges.answer(request, through: .decode) }

let application = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "stack-floor"))
try await application.runService()
