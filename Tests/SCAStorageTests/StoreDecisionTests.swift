import Foundation
import SCACore
import SCAStorage
import Testing

/// The pure store decisions and the shared record decoding, without a database: the
/// conformance suite checks that each backend applies them; these check the rules themselves.
@Suite("Store decisions (pure)")
struct StoreDecisionTests {
    private let now = Date(timeIntervalSince1970: 1_000_000)

    private func device(status: DeviceStatus, failCount: Int = 0) -> DeviceRecord {
        DeviceRecord(
            id: "d1", userID: "u1", name: "phone", platform: "ios", possessionKey: [1],
            status: status, failCount: failCount, createdAt: now)
    }

    private func code(failedTries: Int = 0, usedAt: Date? = nil) -> ActivationCodeRecord {
        ActivationCodeRecord(
            lookupID: "ABCDE", codeHash: [7, 7], userID: "u1", createdAt: now,
            expiresAt: now.addingTimeInterval(60), failedTries: failedTries, usedAt: usedAt)
    }

    @Test("a removed device stays removed; activating clears the failure count")
    func deviceStatus() {
        var removed = device(status: .removed, failCount: 2)
        removed.setStatus(.active)
        #expect(removed == device(status: .removed, failCount: 2))
        var blocked = device(status: .blocked, failCount: 3)
        blocked.setStatus(.active)
        #expect(blocked == device(status: .active, failCount: 0))
        var active = device(status: .active, failCount: 1)
        active.setStatus(.blocked)
        #expect(active == device(status: .blocked, failCount: 1))
    }

    @Test("failures are counted whatever the status; only an active device becomes blocked")
    func deviceFailures() {
        var active = device(status: .active, failCount: 1)
        active.recordFailure(maximumFailures: 2)
        #expect(active == device(status: .blocked, failCount: 2))
        var removed = device(status: .removed, failCount: 5)
        removed.recordFailure(maximumFailures: 2)
        #expect(removed == device(status: .removed, failCount: 6))
    }

    @Test("presenting a code: dead codes are invalid and unchanged, a wrong one counts a try")
    func presentCode() {
        var used = code(usedAt: now)
        #expect(used.present(codeHash: [7, 7], now: now, maximumTries: 3) == .codeInvalid)
        #expect(used == code(usedAt: now))
        var expired = code()
        #expect(expired.present(codeHash: [7, 7], now: now.addingTimeInterval(60), maximumTries: 3) == .codeInvalid)
        var spent = code(failedTries: 3)
        #expect(spent.present(codeHash: [7, 7], now: now, maximumTries: 3) == .codeInvalid)
        var wrong = code(failedTries: 1)
        #expect(wrong.present(codeHash: [7, 8], now: now, maximumTries: 3) == .codeWrong(remaining: 1))
        #expect(wrong == code(failedTries: 2))
        var right = code()
        #expect(right.present(codeHash: [7, 7], now: now, maximumTries: 3) == nil)
        #expect(right == code())
    }

    @Test("registering: removed devices do not count; a registration binds the device and uses the code")
    func register() {
        var full = code()
        let candidate = DeviceRecord(
            id: "d9", userID: "", name: "new", platform: "android", possessionKey: [2], createdAt: now)
        #expect(
            full.register(candidate, ownerDevices: [.active, .blocked], maximumDevices: 2, now: now)
                == .deviceLimitReached)
        #expect(full == code())
        var room = code()
        var bound = candidate
        bound.userID = "u1"
        #expect(
            room.register(candidate, ownerDevices: [.active, .removed], maximumDevices: 2, now: now)
                == .registered(bound))
        #expect(room == code(usedAt: now))
    }

    /// A row as a dictionary; a value of the wrong type reads as damaged.
    private struct DictionaryColumns: ColumnReader {
        var values: [String: Any?]

        struct Damaged: Error, Equatable {
            var column: String
        }

        private func read<Value>(_ column: String) throws -> Value {
            guard let value = values[column] as? Value else { throw Damaged(column: column) }
            return value
        }

        func isNull(_ column: String) throws -> Bool {
            guard let value = values[column] else { throw Damaged(column: column) }
            return value == nil
        }
        func string(_ column: String) throws -> String { try read(column) }
        func integer(_ column: String) throws -> Int64 { try read(column) }
        func double(_ column: String) throws -> Double { try read(column) }
        func bool(_ column: String) throws -> Bool { try read(column) }
        func bytes(_ column: String) throws -> [UInt8] { try read(column) }
        func damaged(_ column: String, reason: String) -> any Error { Damaged(column: column) }
    }

    @Test("each record is decoded once from primitive reads; a bad value names its column")
    func decodeThroughColumnReader() throws {
        var row = DictionaryColumns(values: [
            "id": "d1", "user_id": "u1", "name": "phone", "platform": "ios", "possession_key": [UInt8(1)],
            "biometry_key": nil, "status": "blocked", "fail_count": Int64(3), "created_at": now.timeIntervalSince1970,
            "last_used_at": nil,
        ])
        #expect(try DeviceRecord(columns: row) == device(status: .blocked, failCount: 3))
        row.values["status"] = "lost"
        #expect(throws: DictionaryColumns.Damaged(column: "status")) { try DeviceRecord(columns: row) }
    }
}
