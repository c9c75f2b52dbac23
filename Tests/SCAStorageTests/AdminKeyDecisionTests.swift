import Foundation
import SCACore
import SCAStorage
import Testing

@Suite("Admin key decisions (pure)")
struct AdminKeyDecisionTests {
    let now = Date(timeIntervalSince1970: 1_000_000)

    func key(revokedAt: Date? = nil, lastUsedAt: Date? = nil) -> AdminKeyRecord {
        AdminKeyRecord(
            id: "ak_0123456789abcdef", name: "ops", scopes: [.usersRead], keyHash: Array(repeating: 9, count: 32),
            createdAt: now, lastUsedAt: lastUsedAt, revokedAt: revokedAt)
    }

    @Test("the right hash of a live key is admitted; a wrong hash or a revoked key is refused")
    func verdicts() {
        #expect(key().verdict(presentedHash: Array(repeating: 9, count: 32)) == .admitted)
        #expect(key().verdict(presentedHash: Array(repeating: 8, count: 32)) == .refused)
        #expect(key().verdict(presentedHash: []) == .refused)
        #expect(key(revokedAt: now).verdict(presentedHash: Array(repeating: 9, count: 32)) == .refused)
        #expect(key().allows(.usersRead) && !key().allows(.usersWrite))
    }

    @Test("a use is written when never written, or a minute after the last")
    func useRecording() {
        #expect(key().shouldRecordUse(at: now))
        #expect(!key(lastUsedAt: now).shouldRecordUse(at: now + 59))
        #expect(key(lastUsedAt: now).shouldRecordUse(at: now + 60))
    }

    @Test("key names: letters, digits, '.', '_', '-', up to 64")
    func names() {
        #expect(AdminKeyRecord.isValidName("ci.deploy_2-eu"))
        for bad in ["", "a b", "key:x", "é", String(repeating: "a", count: 65)] { #expect(!AdminKeyRecord.isValidName(bad)) }
    }
}
