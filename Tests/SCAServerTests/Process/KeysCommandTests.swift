import Foundation
import Testing

/// `sca-server keys rotate` and `keys list` as an operator runs them on a data directory: a
/// rotation stores a key that signs an hour later and is audited; a second one before that is
/// refused and changes nothing; an audit checkpoint taken before still verifies; a bad
/// `tokenKeys.rotationPeriod` stops the command before it touches the store.
@Suite("keys commands")
struct KeysCommandTests {
    @Test("keys rotate, list, a refused second rotation, the audit entry and an older checkpoint; a bad period refused")
    func rotateAndList() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["SCA_DATA_DIR": directory.appendingPathComponent("data").path]

        let first = try await AdminCommand.run(["keys", "list"], environment: environment)
        #expect(first.status == 0, "\(first.errors)")
        let firstLines = first.output.split(separator: "\n")
        #expect(firstLines.count == 1 && firstLines[0].hasSuffix("signing"), "\(first.output)")
        let oldKeyID = String(try #require(firstLines.first?.split(separator: " ").first))
        let checkpoint = directory.appendingPathComponent("checkpoint.jws").path
        let taken = try await AdminCommand.run(["audit", "checkpoint", "--output", checkpoint], environment: environment)
        #expect(taken.status == 0, "\(taken.errors)")

        let rotated = try await AdminCommand.run(["keys", "rotate"], environment: environment)
        #expect(rotated.status == 0, "\(rotated.errors)")
        #expect(rotated.output.hasPrefix("rotated: key "), "\(rotated.output)")
        let listed = try await AdminCommand.run(["keys", "list"], environment: environment)
        let lines = listed.output.split(separator: "\n")
        #expect(lines.count == 2, "\(listed.output)")
        #expect(lines.first?.hasSuffix("next") == true && lines.last?.hasSuffix("signing") == true, "\(listed.output)")
        #expect(lines.last?.hasPrefix(oldKeyID) == true)
        let newKeyID = String(try #require(lines.first?.split(separator: " ").first))
        #expect(rotated.output.contains(newKeyID))

        // The next key waits an hour to sign: another rotation now is refused, and stores nothing.
        let again = try await AdminCommand.run(["keys", "rotate"], environment: environment)
        #expect(again.status != 0 && again.errors.contains("rotate again after that"), "\(again.errors)")
        #expect(try await AdminCommand.run(["keys", "list"], environment: environment).output == listed.output)

        let audit = try await AdminCommand.run(["audit", "export"], environment: environment)
        let rotations = audit.output.split(separator: "\n").filter { $0.contains(#""event":"keys.rotated""#) }
        #expect(rotations.count == 1 && rotations[0].contains(newKeyID), "\(audit.output)")
        let verified = try await AdminCommand.run(["audit", "verify", "--checkpoint", checkpoint], environment: environment)
        #expect(verified.status == 0, "\(verified.errors)")

        // A period that is not one: the command stops with the setting named, and nothing changes.
        for bad in ["weekly", "12h", "0d"] {
            let refused = try await AdminCommand.run(
                ["keys", "rotate"], environment: environment.merging(["SCA_TOKEN_KEYS_ROTATION_PERIOD": bad]) { $1 })
            #expect(refused.status != 0 && refused.errors.contains("tokenKeys.rotationPeriod"), "\(bad): \(refused.errors)")
        }
        #expect(try await AdminCommand.run(["keys", "list"], environment: environment).output == listed.output)
    }
}
