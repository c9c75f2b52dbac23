import Foundation
import Testing
import SCACore

@Suite("Activation codes and CRC-16/ARC")
struct ActivationCodeTests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    static let knownGood = ["AAAAA-AAAAA-AAAAA-AAAAA", "VVVVV-VVVVV-VVVVV-VTFVA", "55555-55555-55555-55YMA"]

    @Test("CRC-16/ARC check value and edge inputs")
    func crc() {
        #expect(CRC16.arc(Array("123456789".utf8)) == 0xBB3D)
        #expect(CRC16.arc("123456789".utf8) == 0xBB3D)
        #expect(CRC16.arc([UInt8]()) == 0)
        // init 0: zeros checksum to zero, which is why the all-`A` code is valid.
        #expect(CRC16.arc([UInt8](repeating: 0, count: 10)) == 0)
        #expect(CRC16.arc([0x01]) == 0xC0C1)
    }

    @Test("known codes validate and print canonically", arguments: knownGood)
    func knownCodes(text: String) throws {
        let code = try #require(ActivationCode(text))
        #expect(code.description == text)
        #expect(code.bytes.count == 12)
        #expect(code.lookupID == String(text.prefix(5)))
        let crc = CRC16.arc(code.bytes.prefix(10))
        #expect(code.bytes[10] == UInt8(crc >> 8) && code.bytes[11] == UInt8(crc & 0xFF))
    }

    @Test("the all-A code is twelve zero bytes")
    func zeros() throws {
        #expect(try #require(ActivationCode("AAAAA-AAAAA-AAAAA-AAAAA")).bytes == [UInt8](repeating: 0, count: 12))
    }

    /// Every single-character substitution, at every position, by every other Base32 character.
    /// The CRC is linear, so this covers every single-character error of every code; the last
    /// character also relies on the check that its 4 unused bits are zero.
    @Test("no single-character substitution validates", arguments: knownGood)
    func singleSubstitutions(text: String) {
        let compact = Array(text.filter { $0 != "-" })
        var escaped: [String] = []
        for position in compact.indices {
            for replacement in Self.alphabet where replacement != compact[position] {
                var changed = compact
                changed[position] = replacement
                if ActivationCode(String(changed)) != nil { escaped.append(String(changed)) }
            }
        }
        #expect(escaped.isEmpty, "single-character errors that validate: \(escaped)")
    }

    @Test("adjacent transpositions are refused", arguments: knownGood)
    func transpositions(text: String) {
        let compact = Array(text.filter { $0 != "-" })
        for position in 0..<compact.count - 1 where compact[position] != compact[position + 1] {
            var changed = compact
            changed.swapAt(position, position + 1)
            #expect(ActivationCode(String(changed)) == nil, "\(String(changed))")
        }
    }

    @Test("lower case, missing or extra dashes and spaces are accepted")
    func lenientInput() throws {
        let canonical = try #require(ActivationCode("VVVVV-VVVVV-VVVVV-VTFVA"))
        for text in [
            "vvvvv-vvvvv-vvvvv-vtfva", "VVVVVVVVVVVVVVVVTFVA", "vvvvvvvvvvvvvvvvtfva", "VVVVV VVVVV VVVVV VTFVA",
            " VVVVV--VVVVV-VVVVV-VTFVA ", "V-V-V-V-V-VVVVV-VVVVV-VtFvA", "VVVV VVVVVV-VVVVV-VTFVA",
        ] {
            #expect(ActivationCode(text) == canonical, "\(text)")
        }
    }

    @Test(
        "malformed input is refused",
        arguments: [
            "", "-", "VVVVV-VVVVV-VVVVV-VTFV", "VVVVV-VVVVV-VVVVV-VTFVAA", "VVVVV-VVVVV-VVVVV-VTFVA-A",
            "VVVVV_VVVVV_VVVVV_VTFVA", "VVVVV-VVVVV-VVVVV-VTFVA\n", "VVVVV\tVVVVV-VVVVV-VTFVA",
            "VVVVV-VVVVV-VVVVV-VTFV=", "VVVVV-VVVVV-VVVVV-VTFV1", "VVVVV-VVVVV-VVVVV-VTFV8",
            "VVVVV-VVVVV-VVVVV-VTFVÀ", "VVVVV-VVVVV-VVVVV-VTFVА",  // Cyrillic А
            "ıııı", "AAAAA-AAAAA-AAAAA-AAAAB",  // only the unused bits differ
            String(repeating: "A", count: 10_000),
        ])
    func malformed(text: String) {
        #expect(ActivationCode(text) == nil)
    }

    @Test("generate() round-trips and has 4 groups of 5")
    func generate() throws {
        let random = SeededRandomForTesting(seed: 42)
        var seen: Set<ActivationCode> = []
        for _ in 0..<200 {
            let code = ActivationCode.generate(using: random)
            let text = code.description
            let groups = text.split(separator: "-", omittingEmptySubsequences: false)
            #expect(groups.count == 4 && groups.allSatisfy { $0.count == 5 }, "\(text)")
            #expect(ActivationCode(text) == code)
            #expect(ActivationCode(text.lowercased().replacingOccurrences(of: "-", with: "")) == code)
            #expect(code.lookupID == String(groups[0]))
            seen.insert(code)
        }
        #expect(seen.count == 200)
    }

    @Test("generate() uses exactly the 10 bytes it is given")
    func generateIsDeterministic() {
        #expect(
            ActivationCode.generate(using: SeededRandomForTesting(seed: 7))
                == ActivationCode.generate(using: SeededRandomForTesting(seed: 7)))
        #expect(ActivationCode.generate(using: Fixed(bytes: [UInt8](repeating: 0, count: 10))).description
            == "AAAAA-AAAAA-AAAAA-AAAAA")
        #expect(ActivationCode.generate(using: Fixed(bytes: [UInt8](hex: "ad6b5ad6b5ad6b5ad6b5"))).description
            == "VVVVV-VVVVV-VVVVV-VTFVA")
        #expect(ActivationCode.generate(using: Fixed(bytes: [UInt8](hex: "ef7bdef7bdef7bdef7bd"))).bytes
            == [UInt8](hex: "ef7bdef7bdef7bdef7bdee18"))
    }

    @Test("activation payload signs the canonical code")
    func activationPayload() throws {
        let code = try #require(ActivationCode("vvvvvvvvvvvvvvvvtfva"))
        #expect(DeviceSignature.activationPayload(for: code) == Array("sca-v1|activation|VVVVV-VVVVV-VVVVV-VTFVA".utf8))
    }

    struct Fixed: RandomSource {
        let bytes: [UInt8]
        func bytes(_ count: Int) -> [UInt8] { Array(bytes.prefix(count)) }
    }
}
