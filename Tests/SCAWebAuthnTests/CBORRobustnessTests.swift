import SCACore
import Testing

@testable import SCAWebAuthn

/// The decoder and the authenticator-data parser meet bytes an attacker chose: every input must
/// decode or throw, quickly, never crash.
@Suite struct CBORRobustnessTests {
    /// A small deterministic generator, so a failure can be replayed from its seed.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func deepNestingIsRefusedNotRecursedInto() {
        // 100,000 nested one-element arrays: a naive recursive decoder overflows the stack.
        let hostile = [UInt8](repeating: 0x81, count: 100_000) + [0x00]
        #expect(throws: CBORError.tooDeep) { try CBORDecoder().decode(hostile) }
        let maps = [UInt8](repeating: 0xa1, count: 100_000)
        #expect(throws: (any Error).self) { try CBORDecoder().decode(maps) }
    }

    @Test(arguments: [
        "5bffffffffffffffff",  // byte string of 2^64-1 bytes
        "7bffffffffffffffff",  // text string of 2^64-1 bytes
        "9bffffffffffffffff",  // array of 2^64-1 items
        "bbffffffffffffffff",  // map of 2^64-1 pairs
        "5a7fffffff00",  // byte string of 2^31-1 bytes with one present
        "4501020304",  // five bytes declared, four present
        "1b0000",  // an 8-byte argument cut short
        "a301",  // a map cut short
    ])
    func lengthsPastTheEndAreRefusedWithoutAllocating(hex: String) {
        #expect(throws: CBORError.truncated) { try CBORDecoder().decode([UInt8](hex: hex)) }
    }

    @Test func tooManyItemsAreRefused() throws {
        // An array of 5,000 small integers: fine for memory, but over the item budget.
        let bytes: [UInt8] = [0x99, 0x13, 0x88] + [UInt8](repeating: 0x00, count: 5_000)
        #expect(throws: CBORError.tooManyItems) { try CBORDecoder().decode(bytes) }
        // A map of 500 pairs with distinct keys stays within it.
        var map: [UInt8] = [0xb9, 0x01, 0xf4]
        for key in 0..<500 { map += [0x19, UInt8(key >> 8), UInt8(key & 0xff), 0x00] }
        #expect(try CBORDecoder().decode(map).mapEntries?.count == 500)
    }

    @Test func randomBytesNeverCrash() {
        var random = SplitMix64(state: 0x5CA)
        var decoded = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...64, using: &random)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            if (try? CBORDecoder().decode(bytes)) != nil { decoded += 1 }
            _ = try? AuthenticatorData(bytes)
        }
        // Some random inputs are valid CBOR (a single small integer, say): the decoder ran.
        #expect(decoded > 0)
    }

    /// Real attestation objects and authenticator data with bytes flipped, cut, inserted:
    /// close to valid, which is where parsers break.
    @Test func mutatedCeremoniesNeverCrash() {
        let fixture = Fixture.shared
        let seeds: [[UInt8]] = fixture.cases.keys.sorted().flatMap { name -> [[UInt8]] in
            let response = fixture.cases[name]!.response.response
            return [response.attestationObject, response.authenticatorData].compactMap { $0 }.compactMap { Base64URL.decode($0) }
        }
        #expect(seeds.count >= 8)
        var random = SplitMix64(state: 0xC0FFEE)
        var parsed = 0
        for round in 0..<6_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = Int.random(in: 0..<max(bytes.count, 1), using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where !bytes.isEmpty: bytes[position] ^= UInt8.random(in: 1...255, using: &random)
                case 1 where !bytes.isEmpty: bytes.removeSubrange(position..<bytes.count)
                case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
                default: if !bytes.isEmpty { bytes[position] = [0x1b, 0x5b, 0x9b, 0xbb, 0xff][round % 5] }
                }
            }
            if (try? AttestationObject(bytes)) != nil { parsed += 1 }
            if (try? AuthenticatorData(bytes)) != nil { parsed += 1 }
        }
        // Flips inside signatures or key coordinates leave the structure intact: some parse.
        #expect(parsed > 0)
    }
}
